#!/bin/sh
# paperless-dedupe-hook: the file PAPERLESS_POST_CONSUME_SCRIPT names.
#
# Runs the hook from its own virtual environment on the persistent data volume, so that
# neither Paperless's Python packages nor an image upgrade can break it, and so that it
# never breaks a consume: when the environment is missing or was built for a Python the
# container no longer has, it prints one line on stderr and exits 0.
#
# Environment (all optional):
#   DEDUPE_HOME             where install-dedupe.sh put venv/ and config.toml. Default: the
#                           directory of this file when it holds venv/, else
#                           $PAPERLESS_DATA_DIR/dedupe, else /usr/src/paperless/data/dedupe
#   PAPERLESS_DEDUPE_CONFIG exported as $DEDUPE_HOME/config.toml when unset and that file exists
#   DEDUPE_CHAIN_SCRIPT     a post-consume script you used before: it runs first, with the same
#                           environment. Its exit status is kept: a failure of that script still
#                           fails the consume, as it did before, but our hook runs regardless.
#                           A chained script that is missing or not executable counts as failed
#                           (127/126), as Paperless itself treats a missing script.
#
# Paperless starts this file directly (no shell, no arguments) with DOCUMENT_ID and the other
# DOCUMENT_* variables in the environment; they are passed on unchanged.

# The same rule as the hook's and the CLI's defaults: Paperless's data directory holds dedupe/.
if [ -n "${PAPERLESS_DATA_DIR:-}" ] && [ "$PAPERLESS_DATA_DIR" != None ]; then
    DEFAULT_HOME=${PAPERLESS_DATA_DIR%/}/dedupe
else
    DEFAULT_HOME=/usr/src/paperless/data/dedupe
fi
INSTALL_HINT="run install-dedupe.sh as the Paperless user (Docker: docker compose exec -u paperless webserver /usr/src/paperless/dedupe-src/scripts/install-dedupe.sh, see docs/docker.md)"

if [ -z "${DEDUPE_HOME:-}" ]; then
    case "$0" in
        */*) self_dir=${0%/*} ;;
        *) self_dir=. ;;
    esac
    if [ -x "$self_dir/venv/bin/paperless-dedupe-hook" ]; then
        DEDUPE_HOME=$self_dir
    else
        DEDUPE_HOME=$DEFAULT_HOME
    fi
fi
venv=$DEDUPE_HOME/venv
hook=$venv/bin/paperless-dedupe-hook

if [ -z "${PAPERLESS_DEDUPE_CONFIG:-}" ] && [ -f "$DEDUPE_HOME/config.toml" ]; then
    PAPERLESS_DEDUPE_CONFIG=$DEDUPE_HOME/config.toml
    export PAPERLESS_DEDUPE_CONFIG
fi

# Optional: run the post-consume script this one replaced, first.
chain_status=0
if [ -n "${DEDUPE_CHAIN_SCRIPT:-}" ]; then
    chain=$DEDUPE_CHAIN_SCRIPT
    unset DEDUPE_CHAIN_SCRIPT # no loop if it points back at this file
    if [ -f "$chain" ] && [ -x "$chain" ]; then
        "$chain"
        chain_status=$?
        if [ "$chain_status" -ne 0 ]; then
            echo "paperless-dedupe: chained script $chain exited $chain_status; running the duplicate check anyway" >&2
        fi
    else
        if [ -e "$chain" ]; then chain_status=126; else chain_status=127; fi
        echo "paperless-dedupe: DEDUPE_CHAIN_SCRIPT=$chain is missing or not executable; running the duplicate check anyway" >&2
    fi
fi

# Is the hook there, and does its venv still match the container's Python?
problem=
if [ ! -x "$hook" ]; then
    problem="paperless-dedupe-hook is not installed in $venv"
elif [ -L "$venv/bin/python" ] && [ ! -e "$venv/bin/python" ]; then
    problem="the Python of $venv is gone (Paperless image upgraded?)"
elif [ -e "$venv/bin/python" ] && command -v readlink >/dev/null 2>&1; then
    interp=$(readlink -f "$venv/bin/python" 2>/dev/null) || interp=
    name=${interp##*/}
    case "$name" in
        python[0-9].[0-9] | python[0-9].[0-9][0-9])
            if [ ! -d "$venv/lib/$name" ]; then
                problem="$venv was built for another Python than $name (Paperless image upgraded?)"
            fi
            ;;
    esac
fi

if [ -n "$problem" ]; then
    echo "paperless-dedupe: $problem, duplicate check skipped; $INSTALL_HINT" >&2
    exit "$chain_status"
fi

if [ "$chain_status" -eq 0 ]; then
    exec "$hook"
fi
"$hook"
exit "$chain_status"
