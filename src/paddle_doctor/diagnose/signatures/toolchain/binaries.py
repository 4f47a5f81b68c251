"""Signatures: a library that was built, then refused by the dynamic loader for how it was built: segments aligned for
another page size than the host's (rewritten by an old patchelf, or built on a host of smaller pages), and a library
that calls the C library's shared-memory functions without the one that held them before glibc 2.34 (librt) among its
links. Spliced by :mod:`..tools.builds` among the build's rows, in match order: each names what a wheel built from
source carries, where Paddle's own "Can not import paddle core" line above it says only that the import failed."""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig

BINARY_ROWS = (
    # glibc maps each PT_LOAD segment at its p_align; one not a multiple of this kernel's page size (64 KB pages on
    # many aarch64 servers, a library laid out for 4 KB by an old patchelf --set-rpath, as Paddle's wheel packaging
    # runs it) is refused. The library was built or rewritten for another host than the one it runs on.
    _sig("elf_alignment_not_page", r"(?<![A-Za-z0-9_./\\:+~-])(?P<lib>[A-Za-z0-9_./\\:+~-]{1,300}?):? ELF load command "
         r"(?:alignment not page-aligned|address/offset not (?:properly aligned|page-aligned))", "cause",
         CauseId.dependency_version_mismatch, 75,
         "ImportError: /usr/local/lib/python3.7/site-packages/paddle/fluid/core_noavx.so: ELF load command alignment "
         "not page-aligned",
         title="the loader refused {lib}: its segments are not aligned for this kernel's pages (rewritten by an old "
               "patchelf or strip, or built on a host of 4 KB pages for one of 64 KB pages)",
         fix="rebuild on a host of the target's page size, or with a patchelf of 0.12 or later (which keeps the segments' "
             "alignment) for the wheel's packaging step",
         source="glibc elf/dl-load.c _dl_map_object_from_fd (N_(\"ELF load command alignment not page-aligned\"), "
                "N_(\"ELF load command address/offset not page-aligned\"), older releases \"... not properly aligned\"); "
                "patchelf 0.12 NEWS (the target's page size kept, --page-size)", most="medium"),
    # shm_open/shm_unlink, timer_create and mq_open lived in librt until glibc 2.34 (clock_gettime until 2.17): a library
    # that calls them built without -lrt (Paddle 2.4's source builds, fixed by PR#47421) imports on a newer glibc and
    # fails on an older one: a defect of that build, whether Python's import or a C++ program's loader reports it.
    _sig("librt_symbol_unlinked", r"(?<![A-Za-z0-9_./\\:+~-])(?P<lib>[A-Za-z0-9_./\\:+~-]{1,300}?):? undefined symbol: "
         r"(?P<sym>shm_open|shm_unlink|clock_gettime|timer_create|mq_open)\b", "cause", CauseId.python_exception, 70,
         "ImportError: /root/env/lib/python3.8/site-packages/paddle/fluid/libpaddle.so: undefined symbol: shm_unlink",
         title="{lib} calls {sym} without linking librt, which held it in older glibc releases (before 2.34; "
               "clock_gettime before 2.17): a defect of how that library was built (link it with -lrt)",
         fix="link the library with -lrt (Paddle: a release after PR#47421), or use a prebuilt wheel",
         source="glibc elf/dl-lookup.c (\"undefined symbol: %s\"); glibc 2.34 NEWS (librt's functions moved into libc), "
                "2.17 NEWS (clock_* moved into libc); Paddle PR#47421 (target_link_libraries ... rt)", most="medium"),
)
