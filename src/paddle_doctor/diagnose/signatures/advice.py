"""What to check and do for a shared library the loader cannot find (the rows' own ``confirm`` and ``fix``).

The corpus labels such a library ``file_not_found`` (libGL, libgomp, the MSVC runtime, a DLL an extension links),
but the cause's own advice is about paths a script opens; a library is found by the loader's search path and
installed by the system's package manager, so the rows that read a missing library say that instead.
"""

from __future__ import annotations

LIBRARY_CONFIRM = """
- Linux: `ldd <the .so named in the error> | grep 'not found'` lists what the loader cannot find;
  `ldconfig -p | grep <library>` shows whether any copy is installed. macOS: `otool -L <file>`.
- Windows: open the .pyd/.dll named in the error in Dependencies (github.com/lucasg/Dependencies):
  the missing DLL is marked.
"""

LIBRARY_FIX = """
- Install what provides the library: the system package (Debian/Ubuntu: `apt-file search <library>`
  names it, e.g. libgl1 for libGL.so.1, libgomp1 for libgomp.so.1); on Windows, MSVCP*/VCRUNTIME*
  DLLs come with the Microsoft Visual C++ Redistributable (x64).
- If it is installed, add its folder to the loader's path in the shell that runs the job, on every
  node (`LD_LIBRARY_PATH`; Windows `PATH` or `os.add_dll_directory`; macOS `DYLD_LIBRARY_PATH`).
- A library a package ships (Paddle's `paddle/libs`, an inference library's `third_party`, a frozen app's
  bundle): reinstall that package (or rebuild the bundle) rather than installing the library apart.
- A GPU build's CUDA/cuDNN libraries: see `paddle-doctor explain cuda_cudnn_mismatch`.
"""
