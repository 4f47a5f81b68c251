"""Who and where this process is, from the launcher's environment (no paddle import).

The new launcher (``paddle.distributed.launch``, 3.3.1) gives every worker PADDLE_GLOBAL_RANK,
PADDLE_LOCAL_RANK, PADDLE_GLOBAL_SIZE and PADDLE_LOG_DIR; the old one (``fleet.launch``) gives
PADDLE_TRAINER_ID and PADDLE_TRAINERS_NUM but no log dir, so ``paddle-doctor run`` passes its own
(PADDLE_DOCTOR_LOG_DIR), and ``./log`` (both launchers' default) is the last resort.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from pathlib import Path

from paddle_doctor.contract import LOG_DIR_ENV, RUN_ID_ENV, fault_name, record_name


@dataclass(frozen=True)
class RankInfo:
    rank: int | None
    local_rank: int | None
    world_size: int
    host: str
    pid: int
    log_dir: Path
    run_id: str | None

    @property
    def label(self) -> str:
        return "main" if self.rank is None else str(self.rank)

    def record_path(self) -> Path:
        return self.log_dir / record_name(self.label)

    def fault_path(self) -> Path:
        return self.log_dir / fault_name(self.label)


def _int(env, *names: str) -> int | None:
    for name in names:
        value = env.get(name, "").strip()
        if value.lstrip("-").isdigit():
            return int(value)
    return None


def current(env=None) -> RankInfo:
    env = os.environ if env is None else env
    rank = _int(env, "PADDLE_GLOBAL_RANK", "PADDLE_TRAINER_ID")
    world = _int(env, "PADDLE_GLOBAL_SIZE", "PADDLE_TRAINERS_NUM") or 1
    log_dir = env.get(LOG_DIR_ENV) or env.get("PADDLE_LOG_DIR") or "log"
    run_id = env.get(RUN_ID_ENV) or env.get("PADDLE_MASTER") or env.get("PADDLE_TRAINER_ENDPOINTS")
    return RankInfo(rank=rank, local_rank=_int(env, "PADDLE_LOCAL_RANK", "PADDLE_RANK_IN_NODE"),
                    world_size=world, host=socket.gethostname(), pid=os.getpid(),
                    log_dir=Path(log_dir).absolute(), run_id=run_id)
