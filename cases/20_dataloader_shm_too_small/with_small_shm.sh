#!/bin/sh
# Run a command as it runs in a container started with `docker run --shm-size=2m`: in a private
# mount namespace (an unprivileged user namespace, no root needed) whose /dev/shm is a 2 MB tmpfs.
# Usage: sh with_small_shm.sh CMD [ARG...]
exec unshare --user --map-root-user --mount sh -c \
    'mount -t tmpfs -o size=2m tmpfs /dev/shm && exec "$@"' with_small_shm "$@"
