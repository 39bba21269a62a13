#!/bin/sh
# Installs paperless-dedupe-hook into its own virtual environment, by default on the
# persistent data volume of the Paperless container, and puts the post-consume wrapper beside it.
#
#   install-dedupe.sh [--upgrade]
#
# Docker:  docker compose exec -u paperless webserver /usr/src/paperless/scripts/install-dedupe.sh
#
# Run it as the user the Paperless worker runs as (in Docker: paperless), so that the hook can
# write its index. Re-running it is safe: it keeps config.toml, repairs or recreates a venv that
# no longer fits the container's Python, reinstalls the package in place, and with --upgrade
# moves it to the newest release.
#
# Environment (all optional):
#   DEDUPE_HOME     target directory                 (default /usr/src/paperless/data/dedupe)
#   DEDUPE_PACKAGE  what pip installs: a name, a version spec, a local path or a wheel
#                                                    (default paperless-dedupe-hook)
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

upgrade=
for arg in "$@"; do
    case "$arg" in
        --upgrade | -U) upgrade=--upgrade ;;
        -h | --help)
            awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
            exit 0
            ;;
        *)
            echo "$prog: error: unknown argument: $arg (usage: $prog [--upgrade])" >&2
            exit 2
            ;;
    esac
done

DEDUPE_HOME=${DEDUPE_HOME:-/usr/src/paperless/data/dedupe}
DEDUPE_PACKAGE=${DEDUPE_PACKAGE:-paperless-dedupe-hook}
PYTHON=${DEDUPE_PYTHON:-python3}
VENV=$DEDUPE_HOME/venv
CONFIG=$DEDUPE_HOME/config.toml
WRAPPER=$DEDUPE_HOME/post-consume.sh

case "$0" in
    */*) script_dir=$(cd "${0%/*}" && pwd) ;;
    *) script_dir=$(pwd) ;;
esac
wrapper_src=$script_dir/post-consume.sh

# --- preflight -------------------------------------------------------------------------------
command -v "$PYTHON" >/dev/null 2>&1 || die "$PYTHON not found; install Python 3.11 or newer (Debian: apt-get install python3) or set DEDUPE_PYTHON"
"$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' \
    || die "$PYTHON is Python $("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])'); paperless-dedupe-hook needs 3.11 or newer (set DEDUPE_PYTHON)"
pyver=$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
"$PYTHON" -c 'import venv, ensurepip' >/dev/null 2>&1 \
    || die "the Python venv module is missing; install the Debian package python3-venv (or python$pyver-venv): apt-get install python3-venv"
[ -f "$wrapper_src" ] || die "post-consume.sh not found next to this installer ($script_dir); keep both files of scripts/ together"

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
    "$PYTHON" -m venv "$VENV" || die "python -m venv failed for $VENV (Debian: apt-get install python3-venv)"
elif [ -n "$recreate" ]; then
    say "recreating $VENV: $recreate"
    "$PYTHON" -m venv --clear "$VENV" || die "python -m venv --clear failed for $VENV"
else
    say "reusing $VENV (Python $pyver)"
fi

say "installing $DEDUPE_PACKAGE${upgrade:+ (upgrade)}"
# shellcheck disable=SC2086 # $upgrade is empty or one word on purpose
"$VENV/bin/python" -m pip install --disable-pip-version-check --no-input -q $upgrade "$DEDUPE_PACKAGE" \
    || die "pip install of $DEDUPE_PACKAGE into $VENV failed (see pip's message above)"
[ -x "$VENV/bin/paperless-dedupe-hook" ] || die "$DEDUPE_PACKAGE did not install the paperless-dedupe-hook command"
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

cat <<EOF

paperless-dedupe-hook $version is installed in $VENV

Next steps (in Docker, prefix each command with: docker compose exec -u paperless webserver):
  1. Give it an API token: put it in $DEDUPE_HOME/token (chmod 600) and set
     token_file = "$DEDUPE_HOME/token" under [paperless] in $CONFIG,
     or set PAPERLESS_DEDUPE_TOKEN in the Paperless environment.
  2. Set in the Paperless environment and restart Paperless:
       PAPERLESS_POST_CONSUME_SCRIPT=$WRAPPER
       PAPERLESS_DEDUPE_CONFIG=$CONFIG
  3. Check the setup:
       $VENV/bin/paperless-dedupe --config $CONFIG doctor
  4. Index the documents you already have (first time):
       $VENV/bin/paperless-dedupe --config $CONFIG rebuild-index --annotate
EOF
