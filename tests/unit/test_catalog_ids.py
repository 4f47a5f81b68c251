"""catalog/ids.py is generated from causes.toml: the file equals what its generator writes, and a new
catalog entry is one regeneration away from a member (issue 33)."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from paddle_doctor.catalog import ids

CATALOG = Path(ids.__file__).parent


def test_ids_py_is_what_the_generator_writes():
    text = Path(ids.__file__).read_text(encoding="utf-8")
    assert text == ids.render_ids(text, ids.catalog_headers()), \
        "regenerate: python src/paddle_doctor/catalog/ids.py --write"


def _import_copy(path: Path):
    spec = importlib.util.spec_from_file_location("ids_copy", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_new_entry_is_a_regeneration_away_from_a_member(tmp_path):
    for name in ("ids.py", "causes.toml"):
        shutil.copy(CATALOG / name, tmp_path / name)
    with (tmp_path / "causes.toml").open("a", encoding="utf-8") as fh:
        fh.write('\n[brand_new_cause]\ntitle = "t"\nkind = "crash"\nwhy = "w"\nconfirm = "c"\nfix = "f"\n')
    with pytest.raises(RuntimeError, match="brand_new_cause.*ids.py --write") as refused:
        _import_copy(tmp_path / "ids.py")  # the import-time check refuses the drifted copy
    assert type(refused.value).__name__ == "CatalogDriftError"
    run = subprocess.run([sys.executable, str(tmp_path / "ids.py"), "--write"], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    regenerated = _import_copy(tmp_path / "ids.py")
    assert regenerated.CauseId.brand_new_cause == "brand_new_cause"
    assert [m.value for m in regenerated.CauseId][:-1] == [m.value for m in ids.CauseId]
