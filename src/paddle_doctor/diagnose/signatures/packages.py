"""Import names of the third-party libraries the suites require (issue 29).

A module one of these lacks, or one of them missing altogether, is a library of a release the code does not fit
(or not installed): ``dependency_version_mismatch``. Paddle's own packages are not here (a name they lack is code
of another release, ``paddle_api_mismatch``), nor numpy: its removals are known name by name (numpy_alias_removed),
and another name it lacks is more often asked of the wrong module (six's integer_types).
"""

from __future__ import annotations

import re

# Each group: the suite's requirements (requirements*.txt, setup.py install_requires) as mirrored 2026-12, by import
# name where it differs from the distribution's (opencv-python cv2, pyzmq zmq, PyMuPDF fitz, gdal osgeo, ...).
_BY_SOURCE = {
    # the suites' wheels' Requires-Dist as first read (issue 29), EISeg's easydict, the CT transform's Polygon3, and
    # what they pull in (markupsafe, werkzeug)
    "wheels": "scipy PIL cv2 skimage sklearn pandas matplotlib shapely pyclipper imgaug albumentations librosa "
              "soundfile numba onnx onnxruntime h5py lmdb yaml google.protobuf markupsafe jinja2 flask werkzeug "
              "setuptools pkg_resources six visualdl transformers tokenizers sentencepiece datasets huggingface_hub "
              "pydantic typeguard attrdict tqdm requests urllib3 packaging decord imageio pycocotools lap motmetrics "
              "faiss jieba nltk rapidfuzz sympy pyworld paddleaudio Polygon easydict",
    "PaddleHub requirements.txt": "colorama colorlog filelock gradio gunicorn zmq rarfile",
    "PaddleDetection requirements.txt, test_tipc/requirements.txt and .travis/requirements.txt":
        "Cython GPUtil llvmlite psutil pynvml terminaltables",
    "PaddleSpeech setup.py": "braceexpand configargparse editdistance g2p_en g2pM gpustat hyperpyyaml inflect "
                             "jsonlines loguru nara_wpe opencc phkit prettytable kenlm pypinyin dateutil sacrebleu "
                             "sox textgrid unidecode webrtcvad yacs zhon praatio resampy",
    "PaddleClas requirements.txt": "ujson gast",
    "PaddleSeg requirements.txt and EISeg's": "osgeo pymatting rasterio SimpleITK vtk wget",
    "PaddleX setup.py": "chardet chinese_calendar erniebot erniebot_agent imagesize langchain langchain_community lxml "
                        "networkx openpyxl parsley premailer fitz ruamel qianfan unstructured",
    "FastDeploy requirements.txt": "fastapi",
    "PaddleOCR's inference benchmark logging (AutoLog: its test scripts clone github.com/LDOUBLEV/AutoLog; not in "
    "requirements.txt)": "auto_log",
    "PARL setup.py and parl/remote/communication.py (pyarrow, used when installed)":
        "termcolor cloudpickle tensorboardX tensorboard flask_cors click grpc pyarrow",
}
SUITE_LIBRARY_NAMES: tuple[str, ...] = tuple(dict.fromkeys(n for names in _BY_SOURCE.values() for n in names.split()))
# Longest first, so that a name is never cut short by one it starts with (lap, lapx).
SUITE_LIBRARIES = "(?:" + "|".join(re.escape(n) for n in sorted(SUITE_LIBRARY_NAMES, key=len, reverse=True)) + ")"
