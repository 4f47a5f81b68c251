"""The signature rows of the build toolchain's configure step (CMake), which :mod:`..tools.builds` splices into its
own table."""
