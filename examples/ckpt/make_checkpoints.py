"""Write the two checkpoints the README's `paddle-doctor ckpt` example reads (they are not shipped:
one is 43 MiB, the other is hostile on purpose).

    python make_checkpoints.py

- ``distilled.pdparams``: a ResNet-18 with a 10-class head, trained as the student of a
  distillation wrapper, so every key starts with ``student.`` (what ``paddle.save`` of the
  wrapper's ``state_dict()`` gives). Checked against ``paddle.vision.models:resnet18`` (1000
  classes), it shows both a prefix and a shape mismatch.
- ``evil.pdparams``: a pickle whose loading would call ``os.system``. Writing it runs nothing, and
  ``paddle-doctor ckpt inspect`` refuses it without running it either.
"""

import os
import pickle
import warnings

warnings.filterwarnings("ignore", message="No ccache found")  # Paddle's import-time note for extension builders
import paddle  # noqa: E402


class Distiller(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.student = paddle.vision.models.resnet18(num_classes=10)


class Evil:
    def __reduce__(self):
        return (os.system, ("echo this ran",))


paddle.seed(0)
paddle.save(Distiller().state_dict(), "distilled.pdparams")
with open("evil.pdparams", "wb") as out:
    pickle.dump({"fc.weight": Evil()}, out, protocol=4)
print("wrote distilled.pdparams and evil.pdparams")
