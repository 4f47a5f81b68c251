"""Issue 29, after gathered batch 18's second look: cuDNN 8 loads its split sub-libraries
(``libcudnn_{ops,cnn,adv}_{infer,train}.so.8``, ``cudnn_*64_8.dll``) on first use and, when one is
missing or its siblings come from another cuDNN install, prints ``Could not load library <lib>.
Error: <dlerror>`` and ``Please make sure <lib> is in your library path!`` before aborting. Main read
that as an error of no known cause. Lines follow cuDNN's own wording; none is a corpus log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of


_diagnose = root_cause_of


@pytest.mark.parametrize("text, lib", [
    ("Could not load library libcudnn_cnn_infer.so.8. Error: /usr/lib/x86_64-linux-gnu/libcudnn_ops_infer.so.8: "
     "undefined symbol: cudnnGetLibConfig, version libcudnn_ops_infer.so.8\n"
     "Please make sure libcudnn_cnn_infer.so.8 is in your library path!\nAborted (core dumped)\n",
     "libcudnn_cnn_infer.so.8"),
    ("Could not load library cudnn_ops_infer64_8.dll. Error code 126\n"
     "Please make sure cudnn_ops_infer64_8.dll is in your library path!\n", "cudnn_ops_infer64_8.dll"),
])
def test_a_cudnn_part_that_cannot_load_is_the_cudnn_install(tmp_path, text, lib):
    rc = _diagnose(tmp_path, text)
    assert rc is not None and rc.cause == CauseId.cuda_cudnn_mismatch, (rc and rc.cause, rc and rc.why)
    assert lib in rc.message and f"{lib}." not in rc.message


def test_another_library_that_cannot_load_is_not_read_as_cudnn(tmp_path):
    rc = _diagnose(tmp_path, "Could not load library libmyplugin.so. Error: libfoo.so: cannot find\n")
    assert rc is None or rc.cause != CauseId.cuda_cudnn_mismatch, rc and rc.cause
