"""Confidence that keeps its promise (DESIGN: "a verdict's confidence is a promise").

Two amendments to a chosen verdict, applied last by :func:`..rootcause.decide`:

- **The fallback is never high.** ``python_exception`` means "the user's code raised and nothing names
  a more specific cause"; it rests on the absence of a rule, so it is at most ``medium``, whatever
  decided it (a rank's lone traceback, an error record).
- **A near cause that one line cannot tell apart.** Some causes print the same error: a variable the
  launcher did not set (``missing_dist_env``) or one left over from another job
  (``residual_dist_env``); a host address that is wrong (``wrong_host_ip``) or a launch that lists
  the wrong hosts (``config_error``); a machine with no usable GPU (``device_not_found``) or
  ``CUDA_VISIBLE_DEVICES`` hiding it (``cuda_visible_devices_misconfig``); a GPU out of memory
  (``gpu_oom``) or NCCL failing on an allocation (``nccl_error``); NCCL's "unhandled cuda error" (``nccl_error``)
  or an NCCL built for another CUDA (``nccl_version_mismatch``); CUDA's initialisation error
  (``cuda_error_other``) or a driver or CUDA/cuDNN that does not match the build (``cuda_cudnn_mismatch``); a tensor
  stream that is not version 0: a parameter file missing (``file_not_found``) or not a saved tensor
  (``checkpoint_corrupt``); a bare ``MemoryError: std::bad_alloc`` from a Paddle call: a full host
  (``host_out_of_memory``) or a model or package made for another Paddle (``paddle_api_mismatch``);
  Paddle's core library that would not import: a system library it links (``file_not_found``) or a
  GPU build's CUDA/cuDNN library (``cuda_cudnn_mismatch``); pip finding no release of a package: none built for this Python
  (``dependency_version_mismatch``) or the version only on another index (``config_error``); a bus error: a native
  crash (``segfault``) or /dev/shm run out (``shm_too_small``); a notebook kernel that died: a crash or a kill
  (``host_oom_killed``); cuDNN's BAD_PARAM: a cuDNN of another version or the op's own inputs
  (``python_exception``); phi without a kernel of that name: a build made without it (``config_error``) or a Paddle
  older than it (``paddle_api_mismatch``); an operator's input never fed: a script for another model (``config_error``)
  or its own feeding code (``python_exception``); a saved tensor that is not version 0: a damaged or foreign file
  (``checkpoint_corrupt``) or a newer Paddle's model (``paddle_api_mismatch``); a module or YAML tag ppdet does not
  register: another release (``paddle_api_mismatch``) or a misspelt name (``config_error``). When the verdict rests
  on that one line (the rank's own error line, a snippet's, or its structure; or the line of a signature row marked
  ``near``) and no gathered fact settles which (a loopback address named, the launch's device lists read), the verdict
  is ``medium`` and the near cause is its first alternative, with the check that tells the two apart.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass

from ...catalog.ids import CauseId
from ...findings import Alternative, Confidence, Finding
from ..signatures import SIGNATURES

FALLBACK = CauseId.python_exception


@dataclass(frozen=True)
class Near:
    cause: CauseId  # the near cause
    why: str  # why the line fits it too
    confirm: str  # the check that tells the two apart
    when: str = ""  # a pattern the quoted lines must show for the two to be near (empty: always)
    settled_by: str = ""  # a pattern in the quoted lines that settles it (the verdict stands)


_ENV = "`env | grep -E '^(PADDLE_|FLAGS_selected)'` in the shell that ran it: no PADDLE_TRAINER_* means missing"
_IPS = "compare --ips (or PADDLE_TRAINER_ENDPOINTS) with `hostname -I` on every node"
_GPUS = "`echo $CUDA_VISIBLE_DEVICES` and `nvidia-smi -L` in the shell that ran it"
_CUDA_LIBRARIES = r"(?i)cud(?:a|nn|art)|cublas|cufft|curand|cusolver|cusparse|nvinfer|nvrtc|nvjitlink|libnccl"
_MEMORY = r"(?i)out of memory|alloc\w* fail|cudaErrorMemoryAllocation|ALLOC_FAILED|ncclSystemError"

NEAR: dict[CauseId, tuple[Near, ...]] = {
    # A module Python cannot find is most often a package this environment lacks (never installed, installed for
    # another interpreter, or shadowed by an unrelated package of the same name), not a mistake in the code.
    CauseId.python_exception: (Near(CauseId.dependency_version_mismatch, "the module may belong to a package "
                                    "this environment lacks (not installed, installed for another Python, or "
                                    "shadowed by another package of the same name)", "`python -m pip show "
                                    "<package>` with the same interpreter; `python -c \"import <top>; print(<top>."
                                    "__file__)\"` shows which package a name resolves to",
                                    when=r"No module named"),
                               # A name or a call Python cannot resolve at a library's object (an attribute, an
                               # import, the arguments a function takes) is what changes between releases.
                               Near(CauseId.paddle_api_mismatch, "the name or call may be one of another release of "
                                    "Paddle or of the suite the code was written for", "the installed "
                                    "`paddle.__version__` (and the suite's) against the versions the code's README "
                                    "or requirements name",
                                    when=r"\b(?:AttributeError|ImportError)\b|TypeError: .*(?:unexpected keyword "
                                         r"argument|positional argument|is not callable)"),
                               # An id past an embedding's table on the CPU kernel: the data, or a config whose
                               # vocab_size does not fit it.
                               Near(CauseId.config_error, "an id past the table may be a config that does not fit "
                                    "the data (vocab_size, max position)", "compare the data's largest id with the "
                                    "model's vocab_size in the config", when=r"expected >= 0 and < \d+, but got"),
                               # A Lite op's shape check on a model that runs in Paddle: an op attribute this Lite
                               # release does not implement yet computes another shape (Paddle-Lite#2724).
                               Near(CauseId.paddle_api_mismatch, "the model may use an op feature (an attribute, a "
                                    "mode) that this Paddle-Lite release does not implement, so its op computes "
                                    "another shape", "run the model in Paddle Inference with the same input: it "
                                    "works there if Lite's op is at fault; then try the newest Paddle-Lite and its "
                                    "opt", when=r"lite/(?:operators|kernels)/\S+ \w+:\d+\] .* check failed!"),),
    CauseId.missing_dist_env: (Near(CauseId.residual_dist_env, "the PADDLE_* variables may be left over from "
                                    "another job rather than missing", _ENV + " (and set ones are stale)"),),
    CauseId.residual_dist_env: (Near(CauseId.missing_dist_env, "the launcher's variables may be missing rather "
                                     "than left over", _ENV),),
    CauseId.wrong_host_ip: (Near(CauseId.config_error, "the launch may list the wrong hosts (--ips, --master) "
                                 "rather than a host having the wrong address", _IPS,
                                 settled_by=r"\b127\.\d+\.\d+\.\d+"),),
    CauseId.config_error: (# Paddle-Lite's unread parameter file (a combined model given as a directory): the
                           # directory may also simply not be the model's (a wrong path)
                           Near(CauseId.file_not_found, "the model directory given may not hold the model's files (a "
                                "wrong path)", "`ls -l` the model directory: one file per persistable variable for "
                                "--model_dir; a model of two files needs --model_file and --param_file",
                                when=r"model_parser\.cc:\d+\] Check failed: version == 0U"),
                           # a tensor stream whose version field is no version: the file named may also be the
                           # right one but damaged (a page saved in its place by a failed download)
                           Near(CauseId.checkpoint_corrupt, "the file named may be the parameters but damaged (a "
                                "failed download saved in its place)", "`ls -l` and `file` the params file: a "
                                "saved parameter file is binary and as large as the model's weights",
                                when=r"tensor version \d{3,} is not supported"),
                           Near(CauseId.wrong_host_ip, "a host may have another address than the launch says",
                                _IPS, when=r"(?i)\bips?\b|endpoint|node_ips|host|master"),
                           # a model saved by a newer Paddle (3.x's PIR inference.json) is no program an older
                           # paddle2onnx can parse, as a checkpoint given as the model is not
                           Near(CauseId.paddle_api_mismatch, "the model may be in a format this paddle2onnx does "
                                "not read (Paddle 3.x's inference.json needs paddle2onnx 2.x)",
                                "the model file's name: .pdparams/.pdopt/.yml is no model (export one first); "
                                ".json needs paddle2onnx >= 2.0", when=r"Failed to parse (?:paddlepaddle|PaddlePaddle) model"),
                           # argparse checks the command line against the installed tool's own options: a command
                           # from the docs of another release (an option added, renamed or made required since)
                           # fails it as a mistyped one does
                           Near(CauseId.paddle_api_mismatch, "the command may follow the docs of another release of "
                                "the tool (an option added, renamed or made required since)",
                                "`<tool> --help` lists the options the installed release takes; compare its version "
                                "with the one the docs are for",
                                when=r"error: (?:unrecognized arguments|the following arguments are required|"
                                     r"argument \S+: invalid choice)"),
                           # a name the installed suite does not know (an argument, a task, a model) may be one
                           # another release of it has: added since, or renamed (PaddleOCR 3.x's arguments)
                           Near(CauseId.paddle_api_mismatch, "the name may be one another release of the suite "
                                "takes (added, renamed or removed since)", "the installed release's docs or "
                                "`pip show <suite>`: compare with the release the code or command was written for",
                                when=r"(?i)unknown argument|is not in \w+ list|is not a (?:known|registered|"
                                     r"supported) (?:model|task|argument)"),
                           # phi has no kernel of that name in this build: a build made without it, or a release
                           # older than the kernel
                           Near(CauseId.paddle_api_mismatch, "the kernel may be newer than the installed Paddle",
                                "`python -c \"import paddle; paddle.version.show()\"` against the release the code or "
                                "its suite asks for", when=r"The kernel `\w+` is not registered\."),
                           # an input never fed: the script's own feeding may be the bug (a demo's, the user's)
                           Near(CauseId.python_exception, "the script's own feeding code may be wrong (a name or an "
                                "order that does not reach the input)", "print the predictor's get_input_names() and "
                                "the names the script feeds", when=r"dimension is -1,|-1-D Tensor")),
    # a tensor stream that is not version 0 to this Paddle may be a newer Paddle's model (PP-OCRv5 under 2.x)
    CauseId.checkpoint_corrupt: (Near(CauseId.paddle_api_mismatch, "the file may be a model a newer Paddle saved "
                                      "(3.x's models: PP-OCRv5, PIR inference.json), which reads as foreign to an older "
                                      "one", "the installed `paddle.__version__` against the release the model's page "
                                      "or README asks for", when=r"Deserialize to tensor failed"),),
    CauseId.device_not_found: (Near(CauseId.cuda_visible_devices_misconfig, "CUDA_VISIBLE_DEVICES may hide or "
                                    "renumber the GPUs", _GPUS),),
    CauseId.cuda_visible_devices_misconfig: (Near(CauseId.device_not_found, "the machine or container may have no "
                                                  "usable GPU at all",
                                                  _GPUS + "; in Docker, was it started with --gpus?"),),
    CauseId.gpu_oom: (Near(CauseId.nccl_error, "the allocation that failed was NCCL's (its buffers, a collective)",
                           "rerun with NCCL_DEBUG=INFO: an NCCL allocation names its buffer size; lower "
                           "NCCL_BUFFSIZE or the batch size", when=r"(?i)nccl"),),
    # A tensor stream whose version is not 0: Paddle-Lite reads it from a parameter file it never checked it
    # opened (a missing file), and any loader reads the same of a file that is not a saved tensor.
    CauseId.file_not_found: (Near(CauseId.checkpoint_corrupt, "the parameter file may be there but not a saved "
                                  "tensor (truncated, another format, a combined params file)",
                                  "`ls -l` the model directory: one file per persistable variable for --model_dir, "
                                  "or pass --model_file/--param_file for a combined model",
                                  when=r"Only version 0 is supported"),
                             # PaddleOCR 2.0 renamed the exported files (model/params -> inference.pdmodel/.pdiparams):
                             # a model folder of one release looked up by the other release's file name is a model
                             # of another release, not a missing download.
                             Near(CauseId.paddle_api_mismatch, "the model folder may be of another PaddleOCR release, "
                                  "whose files the code names otherwise (model/params before 2.0, inference.pdmodel/"
                                  "inference.pdiparams from 2.0)", "`ls` the model folder: files named for the other "
                                  "release mean the model and the code are of different releases",
                                  when=r"_v1\.\d\w*_infer[/\\]+inference\.pd(?:model|iparams)\b|(?:_v2\.\d|PP-OCRv\d)\w*"
                                       r"_infer[/\\]+(?:model|params)\b"),
                             # core.py's line names the core file it could not import, not the library behind it:
                             # a system library it links (libgomp, the MSVC runtime) missing fails the import the same
                             # way as a GPU build's CUDA or cuDNN library not found. A library named settles it.
                             Near(CauseId.cuda_cudnn_mismatch, "a GPU build's CUDA or cuDNN library may be the one "
                                  "missing (not on PATH / LD_LIBRARY_PATH, or of another version than the build's)",
                                  "the ImportError after the line names the library: rerun `python -c \"import "
                                  "paddle\"`, or `ldd` the core file it names (Windows: Dependencies.exe) and look "
                                  "for `not found`",
                                  when=r"Can not import (?:avx |noavx |paddle )?core while this file exists|DLL load "
                                       r"failed while importing (?:core_avx|core_noavx|libpaddle|core)\b",
                                  settled_by=r"(?i)libgomp|msvcp|vcruntime|vc_redist|libstdc|libssl|libcrypto"),),
    # CUDA's error 35 says "driver older than the runtime", and says the same when there is no driver at
    # all to ask (a GPU image run without the NVIDIA container runtime, a stub libcuda): a version printed
    # beside it shows a driver is there.
    CauseId.cuda_cudnn_mismatch: (
        # cuDNN's BAD_PARAM from one of Paddle's kernels: the cuDNN loaded rejects what the build passes, or the values
        # the op was given (an RNN's sequence lengths past its input, a shape) are ones cuDNN rejects.
        Near(CauseId.python_exception, "cuDNN rejects a bad parameter also when the op's own inputs are out of range "
             "(sequence lengths longer than the input, a zero-sized shape)", "check the op's inputs (the shapes and "
             "lengths the code passes) first; the same script on another cuDNN fails the same way if they are at fault",
             when=r"CUDNN_STATUS_BAD_PARAM\b"),
        Near(CauseId.device_not_found, "CUDA says the same when no driver is reachable at all (a container started "
             "without --gpus / the NVIDIA runtime)", "`nvidia-smi` in the same shell or container: it fails when no "
             "driver is reachable; otherwise compare its driver version with the CUDA version",
             when=r"(?i)driver version is insufficient|cudaErrorInsufficientDriver|"
                  r"error(?: code)?\s*:?\s*\(?35\)?\b|\(0 vs\. 35\)",
             settled_by=r"(?i)driver(?: api)? version(?: is|:)?\s*\d"),
        # A symbol the core library (or a device plugin) needs and a loaded library lacks: that library is of
        # another version; a CUDA library is the catalog's case, any other (a device SDK built by hand, a
        # system library) is a dependency of another version.
        Near(CauseId.dependency_version_mismatch, "the library of another version may not be CUDA's (a device "
             "SDK or a system library the build links)", "demangle the symbol (`c++filt`): its namespace names the "
             "library; compare that library's version with the one the Paddle build was made against",
             when=r"undefined symbol", settled_by=_CUDA_LIBRARIES),
        # A library the loader cannot open that is none of CUDA's: the app's own deployment (a library it ships,
        # a device's HAL) may simply lack it, which is a missing file rather than a wrong version.
        Near(CauseId.file_not_found, "the library that cannot be opened is not CUDA's: the deployment may simply "
             "lack it (a library the app ships, a device plugin)", "`ldd` the binary or plugin and look for `not "
             "found`; then `find / -name <library>` tells missing from not on the library path",
             when=r"cannot open shared object file|HAL library", settled_by=_CUDA_LIBRARIES),
    ),
    # CUDA's error 3 says only that the driver and runtime could not be initialised together: a driver or
    # CUDA/cuDNN that does not match the build (PaddleX#1428) prints it as a fork or a broken driver does.
    CauseId.cuda_error_other: (Near(CauseId.cuda_cudnn_mismatch, "a driver or CUDA/cuDNN that does not match the "
                                    "Paddle build fails CUDA's initialisation the same way",
                                    "`nvidia-smi` (the driver's CUDA version) against `python -c \"import paddle; "
                                    "print(paddle.version.cuda(), paddle.version.cudnn())\"`",
                                    when=r"(?i)error\s*\(?3\)?,?\s*initiali[sz]ation error|"
                                         r"cudaErrorInitializationError|\(0 vs\. 3\)"),
                                 # A kernel's own input check on an id or label past a table or class count: the
                                 # data, or a config (vocab_size, num_classes) that does not fit it.
                                 Near(CauseId.config_error, "an id or label past the table or class count may be a "
                                      "config that does not fit the data (vocab_size, num_classes, max position)",
                                      "compare the data's largest id or label with the model's vocab_size / "
                                      "num_classes in the config",
                                      when=r"expected >= 0 and < \d+, but got|Assertion `[^`]*\b(?:label|index|id|idx)\w*"
                                           r"[^`]*<")),
    # pybind11 turns a C++ std::bad_alloc into Python's MemoryError("std::bad_alloc"). Paddle's own
    # allocators never throw it bare (host: ResourceExhausted "Fail to alloc memory of N size"; devices:
    # their BadAlloc "Out of memory error on GPU"), so it came from a plain C++ allocation behind a bound
    # call, which a size read from a model or program written by another Paddle asks for as readily as a
    # full host does (paddleclas 2.6.0 on paddle 2.6.x, PaddleClas#3338). No size, no telling them apart.
    # A name a registry does not list (PaddleX's models and pipelines): another release's, or misspelt.
    CauseId.paddle_api_mismatch: (Near(CauseId.config_error, "the name may be misspelt rather than another "
                                       "release's", "the names the installed release lists (its error prints its "
                                       "registered entities; the release's model list in its docs)",
                                       when=r"is not registered on|[Tt]he module \w+ is not registered|"
                                            r"constructor for the tag '!"),),
    CauseId.host_out_of_memory: (Near(CauseId.paddle_api_mismatch, "a bare std::bad_alloc from a Paddle call "
                                      "(building a predictor, loading a model) is also what a model or package "
                                      "made for another Paddle version asks for: a length misread from its file",
                                      "`free -g` while it runs (plenty free: not memory); compare "
                                      "`python -c \"import paddle; print(paddle.__version__)\"` with the Paddle "
                                      "the model was exported with or the suite release asks for, and retry with it",
                                      when=r"MemoryError:\s*std::bad_alloc\s*$"),),
    # pip prints the same two lines when no release of the package fits this Python or platform and when the
    # version asked for is only on another index (Paddle's GPU builds live on paddlepaddle.org.cn, not PyPI); conda
    # the same of a channel that is not configured.
    # A versioned system library the loader cannot open (libcrypto.so.10): the system has another version of
    # it, or none at all; only the machine's library folder tells which.
    CauseId.dependency_version_mismatch: (Near(CauseId.config_error, "the version asked for may exist only on "
                                               "another index (Paddle's GPU builds are served from paddlepaddle.org.cn, "
                                               "not PyPI) rather than not at all for this Python",
                                               "`python --version` and `pip index versions <package>` (or pip's own "
                                               "`(from versions: ...)` list): none at all means this Python or platform "
                                               "has no build; the installation guide names the index (`-i`/`-f`) the "
                                               "build is on",
                                               when=r"No matching distribution found for|Could not find a version "
                                                    r"that satisfies the requirement"),
                                          Near(CauseId.config_error, "the package may exist for this platform in a "
                                               "channel conda was not told to search (Paddle's own channel, "
                                               "conda-forge, nvidia)", "`conda search -c <channel> '<package>'` for "
                                               "the channel the installation guide names: found there means the "
                                               "command lacked the channel; none anywhere means no build for this "
                                               "platform", when=r"PackagesNotFoundError"),
                                          Near(CauseId.file_not_found, "the library may not be installed at all "
                                               "rather than installed in another version",
                                               "`ldconfig -p | grep <library>`: another version listed means another "
                                               "version; none means it is missing",
                                               when=r"cannot open shared object file|did not manage to locate a "
                                                    r"library|\bsndfile library not found"),),
    # SIGBUS: a mapped page the process could not access. In a Paddle job most often /dev/shm full under the
    # DataLoader's workers (its own rows say so where its lines are in the text); without them, a native crash.
    CauseId.segfault: (Near(CauseId.shm_too_small, "a bus error is most often shared memory (/dev/shm) running out "
                            "under the DataLoader's workers", "`df -h /dev/shm` while the job runs (a container's "
                            "default is 64 MB; `--shm-size` raises it), or rerun with `num_workers=0`",
                            when=r"SIGBUS|Bus error|总线错误|undefined portion of a memory object|[Ee]xit code:? -7\b"),
                      # A notebook's kernel that died: the kernel process was killed (the host's OOM killer, most
                      # often) as often as it crashed, and the notebook says neither.
                      Near(CauseId.host_oom_killed, "a notebook kernel that dies is as often killed for memory as "
                           "crashed", "`dmesg -T | grep -i 'killed process'` on the notebook's host, or watch its memory "
                           "while the cell runs", when=r"kernel appears to have died|KernelRestarter"),),
    CauseId.nccl_error: (
        Near(CauseId.gpu_oom, "NCCL failed on a memory allocation: the GPU may simply be full",
             "`nvidia-smi` during the run: memory near the total when the NCCL call fails", when=_MEMORY),
        # NCCL's "unhandled cuda error" says a CUDA call inside NCCL failed, not which: an NCCL built for
        # another CUDA or driver fails its first CUDA calls the same way (PaddleDetection#4139).
        Near(CauseId.nccl_version_mismatch, "an NCCL built for another CUDA or driver fails its first CUDA calls "
             "the same way", "`NCCL_DEBUG=INFO` prints `NCCL version` and the CUDA error behind it: compare with "
             "`python -c \"import paddle; print(paddle.version.nccl(), paddle.version.cuda())\"` and `nvidia-smi`",
             when=r"(?i)unhandled cuda error|ncclUnhandledCudaError"),
    ),
    # A synchronous parameter server answers no trainer until every trainer has sent: one that ran out of batches and
    # finished (a shorter data shard) leaves the others' RPCs to time out as a hung server does, and the other way round.
    CauseId.uneven_train_batches: (
        Near(CauseId.collective_timeout, "the parameter server may itself be stuck (at a barrier after a test phase) "
             "or gone, with every trainer still running", "the servers' own logs, and whether any trainer finished or "
             "exited before the others timed out", when=r"grpc_client\.cc"),
    ),
    CauseId.collective_timeout: (
        Near(CauseId.uneven_train_batches, "a trainer that ran out of batches and finished leaves a synchronous "
             "parameter server waiting at its barrier, and the other trainers' RPCs time out", "compare the trainers' "
             "logs: did one finish (its last step, or its exit) before the others timed out?",
             when=r"grpc_client\.cc"),
    ),
}

# The rules whose verdict rests on one error line (or its structure, or a launcher's one exit code): the ones a
# near cause can fool; and the signature rows marked ``near`` (a refiner that quotes a row's line with a fact beside
# it, such as an earlier warning, settles it: so not every row of a cause with a near one is marked).
LINE_RULES = ("own_error", "unranked_error", "structure_", "pod_exit_status")


@functools.lru_cache(maxsize=1)
def _near_rows() -> frozenset[str]:
    return frozenset(sig.name for sig in SIGNATURES if sig.near)


def calibrated(root: Finding | None, rule_code: str | None) -> Finding | None:
    """``root`` with the confidence it can promise (see the module's docstring)."""
    if root is None:
        return None
    if root.cause == FALLBACK and root.confidence == Confidence.HIGH:
        root = dataclasses.replace(root, confidence=Confidence.MEDIUM, why=root.why + "; at most medium: nothing "
                                   "names a more specific cause than the exception itself")
    if not ((rule_code or "").startswith(LINE_RULES) or rule_code in _near_rows()):
        return root
    near = next((n for n in NEAR.get(root.cause, ()) if _near(root, n)), None)
    if near is None:
        return root
    # the catalog's own alternative for the near cause (its why and check) when it has one
    alternative = next((a for a in root.alternatives if a.cause == near.cause),
                       Alternative(near.cause, Confidence.LOW, near.why, near.confirm))
    others = tuple(a for a in root.alternatives if a.cause != near.cause)
    confidence = Confidence.MEDIUM if root.confidence == Confidence.HIGH else root.confidence
    why = root.why + (f"; {near.cause} prints the same error and nothing here tells them apart"
                      if confidence != root.confidence else "")
    return dataclasses.replace(root, confidence=confidence, why=why, alternatives=(alternative, *others)[:2])


def _near(root: Finding, near: Near) -> bool:
    text = "\n".join(e.text for e in root.evidence)
    if near.settled_by and re.search(near.settled_by, text):
        return False
    if root.fact("launch_devices"):  # the launch's device lists were read: the device facts decided
        return False
    return not near.when or bool(re.search(near.when, text))
