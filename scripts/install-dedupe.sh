#!/bin/sh
# Installs paperless-dedupe-hook into its own virtual environment, by default on the
# persistent data volume of the Paperless container, and puts the post-consume wrapper beside it.
#
#   install-dedupe.sh [--upgrade] [SOURCE]
#
# SOURCE is what gets installed:
#   (none)        run from a checkout of the project (this file in scripts/ beside pyproject.toml):
#                 that checkout; copied on its own: paperless-dedupe-hook from the package index
#   a directory   a checkout of the project (it is copied first, so a read-only mount is fine)
#   a file        a wheel (.whl) or source archive (.tar.gz) of paperless-dedupe-hook
#   anything else passed to pip as it is: a git URL (git+https://...@v0.1.0, needs git), an
#                 archive URL (https://.../v0.1.0.tar.gz), a version (paperless-dedupe-hook==0.1.0)
#
# Docker:  docker compose exec -u paperless webserver /usr/src/paperless/dedupe-src/scripts/install-dedupe.sh
#
# Run it as the user the Paperless worker runs as (in Docker: paperless), so that the hook can
# write its index. Re-running it is safe: it keeps config.toml, repairs or recreates a venv that
# no longer fits the container's Python, reinstalls the package in place, and with --upgrade
# moves it to the newest release.
#
# Environment (all optional):
#   PAPERLESS_DATA_DIR  Paperless's data directory: the target is $PAPERLESS_DATA_DIR/dedupe,
#                   where the hook and the CLI look for config and index by themselves
#   DEDUPE_HOME     another target directory (default $PAPERLESS_DATA_DIR/dedupe, else
#                   /usr/src/paperless/data/dedupe, the Paperless image's data volume)
#   DEDUPE_PACKAGE  SOURCE, when it is not given as an argument
#   DEDUPE_PYTHON   the Python 3.11+ to build the venv with          (default python3)
#   DEDUPE_OWNER    when run as root: chown -R the result to this user[:group]; defaults to
#                   paperless when DEDUPE_HOME is under /usr/src/paperless/ and that user exists
#
# The venv is created WITHOUT --system-site-packages: Paperless's own packages are never
# touched, and the hook sees only what it needs.

set -eu

prog=install-dedupe.sh
die() {
    echo "$prog: error: $*" >&2
    exit 1
}
say() {
    echo "$prog: $*"
}
# die, and first remove the venv when this run created it: the wrapper then says "not
# installed" instead of running an empty venv, and the next run starts afresh.
fail() {
    if [ -n "${made_venv:-}" ]; then
        rm -rf "$VENV"
    fi
    die "$*"
}

upgrade=
source_arg=
for arg in "$@"; do
    case "$arg" in
        --upgrade | -U) upgrade=--upgrade ;;
        -h | --help)
            awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
            exit 0
            ;;
        -*)
            echo "$prog: error: unknown argument: $arg (usage: $prog [--upgrade] [SOURCE])" >&2
            exit 2
            ;;
        *)
            if [ -n "$source_arg" ]; then
                echo "$prog: error: more than one SOURCE: $source_arg and $arg (usage: $prog [--upgrade] [SOURCE])" >&2
                exit 2
            fi
            source_arg=$arg
            ;;
    esac
done

# One rule with the hook and the CLI: Paperless's data directory holds dedupe/.
data_dir=${PAPERLESS_DATA_DIR:-}
[ "$data_dir" != None ] || data_dir=
if [ -n "$data_dir" ]; then
    default_home=${data_dir%/}/dedupe
else
    default_home=/usr/src/paperless/data/dedupe
fi
DEDUPE_HOME=${DEDUPE_HOME:-$default_home}
PYTHON=${DEDUPE_PYTHON:-python3}
VENV=$DEDUPE_HOME/venv
CONFIG=$DEDUPE_HOME/config.toml
WRAPPER=$DEDUPE_HOME/post-consume.sh

case "$0" in
    */*) script_dir=$(cd "${0%/*}" && pwd) ;;
    *) script_dir=$(pwd) ;;
esac
wrapper_src=$script_dir/post-consume.sh

# What to install: the argument, DEDUPE_PACKAGE, the checkout this file lives in, the index.
checkout=${script_dir%/*}
from_index=
if [ -n "$source_arg" ]; then
    DEDUPE_PACKAGE=$source_arg
elif [ -z "${DEDUPE_PACKAGE:-}" ]; then
    if [ -f "$checkout/pyproject.toml" ] && grep -q '^name = "paperless-dedupe-hook"' "$checkout/pyproject.toml"; then
        DEDUPE_PACKAGE=$checkout
    else
        DEDUPE_PACKAGE=paperless-dedupe-hook
        from_index=1
    fi
fi

# --- preflight -------------------------------------------------------------------------------
command -v "$PYTHON" >/dev/null 2>&1 || die "$PYTHON not found; install Python 3.11 or newer (Debian: apt-get install python3) or set DEDUPE_PYTHON"
"$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' \
    || die "$PYTHON is Python $("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])'); paperless-dedupe-hook needs 3.11 or newer (set DEDUPE_PYTHON)"
pyver=$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
"$PYTHON" -c 'import venv, ensurepip' >/dev/null 2>&1 \
    || die "the Python venv module is missing; install the Debian package python3-venv (or python$pyver-venv): apt-get install python3-venv"
[ -f "$wrapper_src" ] || die "post-consume.sh not found next to this installer ($script_dir); keep both files of scripts/ together"
# A source that cannot be installed is said before anything is created (no empty venv left).
case "$DEDUPE_PACKAGE" in
    *://* | git+* | *[=\<\>~!]*) ;; # a URL or a version: pip says what is wrong with it
    /* | ./* | ../* | *.whl | *.tar.gz | *.zip)
        [ -e "$DEDUPE_PACKAGE" ] || die "$DEDUPE_PACKAGE does not exist: pass a checkout of paperless-dedupe-hook, a wheel (.whl), a source archive (.tar.gz) or a git URL"
        ;;
esac
if [ -z "$from_index" ] && [ -d "$DEDUPE_PACKAGE" ] && [ ! -f "$DEDUPE_PACKAGE/pyproject.toml" ]; then
    die "$DEDUPE_PACKAGE is a directory without pyproject.toml; pass a checkout of paperless-dedupe-hook, a wheel or a git URL"
fi

mkdir -p "$DEDUPE_HOME" 2>/dev/null || die "cannot create $DEDUPE_HOME as $(id -un 2>/dev/null || id -u); run as the Paperless user (Docker: docker compose exec -u paperless webserver ...) or set DEDUPE_HOME"
[ -w "$DEDUPE_HOME" ] || die "$DEDUPE_HOME is not writable by $(id -un 2>/dev/null || id -u); run as the Paperless user (Docker: docker compose exec -u paperless webserver ...) or set DEDUPE_HOME"

if [ "$(id -u)" = 0 ] && [ -z "${DEDUPE_OWNER:-}" ]; then
    case "$DEDUPE_HOME" in
        /usr/src/paperless/*)
            # Inside the Paperless image (docker compose exec without -u paperless): hand the
            # result to the worker user, which the image maps to USERMAP_UID.
            if id -u paperless >/dev/null 2>&1; then
                DEDUPE_OWNER=paperless
                say "running as root: $DEDUPE_HOME will be handed to the user paperless"
            fi
            ;;
    esac
    if [ -z "${DEDUPE_OWNER:-}" ]; then
        say "warning: running as root; the hook runs as the Paperless worker user and must be able to write $DEDUPE_HOME (set DEDUPE_OWNER=that user or run this as it)" >&2
    fi
fi

# --- the virtual environment -----------------------------------------------------------------
# Recreate it when it cannot run, was built for another Python minor version (image upgrade),
# or sees the system site-packages.
recreate=
made_venv= # set when this run created the venv: a failed install then removes it again
if [ -e "$VENV" ]; then
    venv_ver=$("$VENV/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) || venv_ver=
    if [ -z "$venv_ver" ]; then
        recreate="its Python does not run"
    elif [ "$venv_ver" != "$pyver" ] || [ ! -d "$VENV/lib/python$pyver" ]; then
        recreate="it was built for another Python than $pyver"
    elif grep -qi '^include-system-site-packages *= *true' "$VENV/pyvenv.cfg" 2>/dev/null; then
        recreate="it sees the system site-packages"
    fi
fi
if [ ! -e "$VENV" ]; then
    say "creating $VENV (Python $pyver)"
    made_venv=1
    "$PYTHON" -m venv "$VENV" || fail "python -m venv failed for $VENV (Debian: apt-get install python3-venv)"
elif [ -n "$recreate" ]; then
    say "recreating $VENV: $recreate"
    made_venv=1
    "$PYTHON" -m venv --clear "$VENV" || fail "python -m venv --clear failed for $VENV"
else
    say "reusing $VENV (Python $pyver)"
fi

install_from=$DEDUPE_PACKAGE
staging=
if [ -z "$from_index" ] && [ -d "$DEDUPE_PACKAGE" ]; then
    # Build from a copy: the checkout may be a read-only mount, and a build must not leave
    # build/ behind in it, nor pick up a kernel compiled there for another Python.
    staging=$(mktemp -d "${TMPDIR:-/tmp}/dedupe-src.XXXXXX") || die "cannot create a temporary directory (set TMPDIR)"
    trap 'rm -rf "$staging"' EXIT
    "$PYTHON" - "$DEDUPE_PACKAGE" "$staging/src" <<'EOF' || die "could not copy the checkout $DEDUPE_PACKAGE to $staging"
import shutil
import sys

skip = shutil.ignore_patterns(".git", ".venv", "venv", "build", "dist", "*.egg-info", "__pycache__", "*.so",
                              ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis")
shutil.copytree(sys.argv[1], sys.argv[2], ignore=skip, symlinks=True)
EOF
    install_from=$staging/src
    say "installing the checkout $DEDUPE_PACKAGE${upgrade:+ (upgrade)}"
else
    say "installing $DEDUPE_PACKAGE${upgrade:+ (upgrade)}"
fi
# shellcheck disable=SC2086 # $upgrade is empty or one word on purpose
if ! "$VENV/bin/python" -m pip install --disable-pip-version-check --no-input -q $upgrade "$install_from"; then
    case "$DEDUPE_PACKAGE" in
        paperless-dedupe-hook | paperless-dedupe-hook[=\<\>~!]*)
            fail "pip install of $DEDUPE_PACKAGE from the package index failed (see pip's message above); if it is not published there (yet), run this installer from a checkout of the project, or pass a wheel or a git URL: $prog /path/to/paperless-dedupe-hook (see docs/docker.md)" ;;
        *) fail "pip install of $DEDUPE_PACKAGE into $VENV failed (see pip's message above)" ;;
    esac
fi
if [ -n "$staging" ]; then
    rm -rf "$staging"
    trap - EXIT
fi
[ -x "$VENV/bin/paperless-dedupe-hook" ] || fail "$DEDUPE_PACKAGE did not install the paperless-dedupe-hook command"
version=$("$VENV/bin/python" -c 'from importlib.metadata import version; print(version("paperless-dedupe-hook"))' 2>/dev/null) || version=unknown

# --- the config file (kept when present) -----------------------------------------------------
if [ -e "$CONFIG" ]; then
    say "keeping $CONFIG"
else
    if err=$("$VENV/bin/paperless-dedupe" --config "$CONFIG" config init 2>&1 >/dev/null) && [ -f "$CONFIG" ]; then
        say "wrote $CONFIG"
    else
        last=$(printf '%s\n' "${err:-no message}" | sed '/^[[:space:]]*$/d' | tail -n 1)
        say "'paperless-dedupe config init' failed ($last); writing a minimal $CONFIG"
        rm -f "$CONFIG"
        (
            umask 077
            cat >"$CONFIG" <<EOF
# paperless-dedupe-hook configuration; see config.example.toml for every key.
[paperless]
url = "http://localhost:8000"
# token_file = "$DEDUPE_HOME/token"
EOF
        )
    fi
    chmod 0600 "$CONFIG"
    # The index belongs on this (persistent) volume, not in the worker user's home directory:
    # set index.path (TOML-escaped) unless the starter config already does.
    "$VENV/bin/python" - "$CONFIG" "$DEDUPE_HOME/index.sqlite3" <<'EOF' || die "could not set index.path in $CONFIG"
import re
import sys
import tomllib

config_path, index_path = sys.argv[1], sys.argv[2]
with open(config_path, encoding="utf-8") as f:
    text = f.read()
data = tomllib.loads(text)
if not isinstance(data.get("index"), dict) or "path" not in data["index"]:
    line = "path = " + '"' + index_path.replace("\\", "\\\\").replace('"', '\\"') + '"\n'
    header = re.search(r"(?m)^\[index\][ \t]*(#.*)?\n", text)
    if header:
        # right below a commented-out "# path = ..." of the section, else below the header
        section_end = re.search(r"(?m)^[ \t]*\[", text[header.end():])
        end = header.end() + section_end.start() if section_end else len(text)
        hint = re.compile(r"(?m)^#[ \t]*path[ \t]*=.*\n").search(text, header.end(), end)
        at = hint.end() if hint else header.end()
        text = text[:at] + line + text[at:]
    else:
        text = text.rstrip("\n") + ("\n\n" if text.strip() else "") + "[index]\n" + line
    tomllib.loads(text)  # still valid
    with open(config_path, "w", encoding="utf-8") as f:
        f.write(text)
EOF
fi

# --- the wrapper (replaced atomically: a consume may be running right now) -------------------
cp "$wrapper_src" "$WRAPPER.tmp.$$"
chmod 0755 "$WRAPPER.tmp.$$"
mv -f "$WRAPPER.tmp.$$" "$WRAPPER"

if [ "$(id -u)" = 0 ] && [ -n "${DEDUPE_OWNER:-}" ]; then
    chown -R "$DEDUPE_OWNER" "$DEDUPE_HOME" || die "chown -R $DEDUPE_OWNER $DEDUPE_HOME failed"
fi

# The CLI run by hand finds this config by itself only when PAPERLESS_DATA_DIR names the
# directory above $DEDUPE_HOME; otherwise name it in every command and in the environment.
if [ -n "$data_dir" ] && [ "$DEDUPE_HOME" = "${data_dir%/}/dedupe" ]; then
    cli="$VENV/bin/paperless-dedupe"
    env_lines="       PAPERLESS_POST_CONSUME_SCRIPT=$WRAPPER"
else
    cli="$VENV/bin/paperless-dedupe --config $CONFIG"
    case "$DEDUPE_HOME" in
        */dedupe) env_lines="       PAPERLESS_POST_CONSUME_SCRIPT=$WRAPPER
       PAPERLESS_DATA_DIR=${DEDUPE_HOME%/dedupe}   (or PAPERLESS_DEDUPE_CONFIG=$CONFIG)" ;;
        *) env_lines="       PAPERLESS_POST_CONSUME_SCRIPT=$WRAPPER
       PAPERLESS_DEDUPE_CONFIG=$CONFIG" ;;
    esac
fi

cat <<EOF

paperless-dedupe-hook $version is installed in $VENV

Next steps (in Docker, prefix each command with: docker compose exec -u paperless webserver):
  1. Give it an API token: put it in $DEDUPE_HOME/token (chmod 600) and set
     token_file = "$DEDUPE_HOME/token" under [paperless] in $CONFIG,
     or set PAPERLESS_DEDUPE_TOKEN in the Paperless environment.
  2. Set in the Paperless environment and restart Paperless:
$env_lines
  3. Check the setup:
       $cli doctor
  4. Index the documents you already have (first time):
       $cli rebuild-index --annotate
EOF
