#!/usr/bin/env bash
# Download pinned benchmark corpora for the codectx indexer, from package registries only.
#
#   scripts/fetch-corpora.sh [OUT_DIR]      (default: <repo>/bench-data/corpora, gitignored)
#
# Corpora (one directory each under OUT_DIR):
#   django/   Django sdist from PyPI              (Python; includes tests/ and docs/)
#   go-std/   Go standard library, Debian golang-1.19-src: usr/share/go-1.19/src
#   tokio/    tokio .crate from static.crates.io  (Rust)
#   syn/      syn .crate from static.crates.io    (Rust)
#   zod/      zod npm tarball, src/ only          (TypeScript sources; dist JS/.d.ts dropped)
#   rxjs/     rxjs npm tarball, src/ only         (TypeScript sources; dist JS/.d.ts/maps dropped)
#
# Idempotent: a finished corpus has OUT_DIR/<name>/.codectx-corpus holding its pinned id;
# it is skipped on later runs. Change a pin and the corpus is rebuilt. Downloads are kept in
# OUT_DIR/.downloads and verified against pinned sha256 sums.
#
# Needs: bash, curl, tar, python3 + pip, npm, apt-get + dpkg-deb. Network: PyPI, crates.io
# (static.crates.io), npm registry, Debian mirrors. If the apt lists are missing, runs
# `apt-get update` (as root, or via sudo when available).
# Set CODECTX_CORPORA_ONLY="django tokio" to fetch a subset.
set -euo pipefail

# ---- pins -------------------------------------------------------------------------------
DJANGO_VERSION=5.2.8
DJANGO_SHA256=23254866a5bb9a2cfa6004e8b809ec6246eba4b58a7589bc2772f1bcc8456c7f
GO_DEB_PACKAGE=golang-1.19-src
GO_DEB_VERSION=1.19.8-2          # Debian bookworm; falls back to the apt candidate if gone
TOKIO_VERSION=1.47.1
TOKIO_SHA256=89e49afdadebb872d3145a5638b59eb0691ea23e46ca484037cfab3b76b95038
SYN_VERSION=2.0.106
SYN_SHA256=ede7c438028d4436d71104916910f5bb611972c5cfd7f89b8300a8186e6fada6
ZOD_VERSION=4.1.12
ZOD_SHA256=2ef9d7a7d822b059c9bd21f87caa4fdc48220d437353678984df942fb67b43fa
RXJS_VERSION=7.8.2
RXJS_SHA256=2312f8ffd9726ffd7bd53ea12c5f13663d09a3dc3326f448c70b88f5ef6fac82
# -----------------------------------------------------------------------------------------

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:-$ROOT/bench-data/corpora}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
DL="$OUT/.downloads"
mkdir -p "$DL"
ONLY="${CODECTX_CORPORA_ONLY:-}"

TMP="$(mktemp -d "${TMPDIR:-/tmp}/codectx-corpora.XXXXXX")"
chmod 0755 "$TMP"   # apt-get download drops to user _apt, which must reach the target dir
trap 'rm -rf "$TMP"' EXIT

log() { printf '[fetch-corpora] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || die "missing tool: $1"; }

wanted() { [[ -z "$ONLY" || " $ONLY " == *" $1 "* ]]; }

# done_marker NAME ID -> true when OUT/NAME is complete at pin ID
is_done() { [[ -f "$OUT/$1/.codectx-corpus" && "$(cat "$OUT/$1/.codectx-corpus")" == "$2" ]]; }

# install_tree NAME ID SRC_DIR: atomically replace OUT/NAME with SRC_DIR and mark it done
install_tree() {
    local name="$1" id="$2" src="$3"
    [[ -d "$src" ]] || die "$name: expected directory $src"
    rm -rf "$OUT/$name" "$OUT/.$name.partial"
    mv "$src" "$OUT/.$name.partial"
    printf '%s\n' "$id" > "$OUT/.$name.partial/.codectx-corpus"
    mv "$OUT/.$name.partial" "$OUT/$name"
    log "$name: ready ($id)"
}

check_sha256() {
    local file="$1" want="$2" got
    got="$(sha256sum "$file" | cut -d' ' -f1)"
    if [[ "$got" != "$want" ]]; then
        rm -f "$file"
        die "sha256 mismatch for $(basename "$file"): got $got, want $want (file removed)"
    fi
}

# ---- Django (PyPI sdist) ----------------------------------------------------------------
fetch_django() {
    local id="django-$DJANGO_VERSION" f="$DL/django-$DJANGO_VERSION.tar.gz"
    is_done django "$id" && { log "django: present ($id)"; return; }
    need python3
    if [[ ! -f "$f" ]]; then
        log "django: pip download django==$DJANGO_VERSION (sdist)"
        python3 -m pip download "django==$DJANGO_VERSION" --no-deps --no-binary :all: \
            --disable-pip-version-check -q -d "$TMP/pip"
        mv "$TMP/pip/django-$DJANGO_VERSION.tar.gz" "$f"
    fi
    check_sha256 "$f" "$DJANGO_SHA256"
    mkdir -p "$TMP/django"
    tar -xzf "$f" -C "$TMP/django"
    install_tree django "$id" "$TMP/django/django-$DJANGO_VERSION"
}

# ---- Go standard library (Debian package) -----------------------------------------------
as_root() {
    if [[ "$(id -u)" == 0 ]]; then "$@"
    elif command -v sudo >/dev/null 2>&1; then sudo "$@"
    else return 1; fi
}

apt_has() { apt-cache show "$1" >/dev/null 2>&1; }

fetch_go_std() {
    local deb
    need apt-get; need apt-cache; need dpkg-deb
    if ! apt_has "$GO_DEB_PACKAGE"; then
        log "go-std: $GO_DEB_PACKAGE not in apt lists; running apt-get update"
        as_root apt-get update -qq || die "apt-get update failed (need root or sudo)"
        apt_has "$GO_DEB_PACKAGE" || die "$GO_DEB_PACKAGE is not available from the configured apt sources"
    fi
    local version="$GO_DEB_VERSION"
    if ! apt-cache show "$GO_DEB_PACKAGE=$version" >/dev/null 2>&1; then
        version="$(apt-cache policy "$GO_DEB_PACKAGE" | awk '/Candidate:/ {print $2}')"
        log "go-std: warning: pinned $GO_DEB_PACKAGE=$GO_DEB_VERSION not available; using $version"
    fi
    local id="$GO_DEB_PACKAGE-$version"
    is_done go-std "$id" && { log "go-std: present ($id)"; return; }
    deb="$(ls "$DL/${GO_DEB_PACKAGE}_${version//:/%3a}_"*.deb 2>/dev/null | head -n1 || true)"
    if [[ -z "$deb" ]]; then
        log "go-std: apt-get download $GO_DEB_PACKAGE=$version"
        mkdir -p "$TMP/apt"
        chmod 0777 "$TMP/apt"
        (cd "$TMP/apt" && apt-get download -q "$GO_DEB_PACKAGE=$version")
        deb="$(ls "$TMP/apt/"*.deb | head -n1)"
        mv "$deb" "$DL/"
        deb="$DL/$(basename "$deb")"
    fi
    mkdir -p "$TMP/go"
    dpkg-deb -x "$deb" "$TMP/go"
    local src
    src="$(ls -d "$TMP"/go/usr/share/go-*/src | head -n1)"
    install_tree go-std "$id" "$src"
}

# ---- crates (static.crates.io) ----------------------------------------------------------
fetch_crate() {
    local name="$1" version="$2" sha="$3"
    local id="$name-$version" f="$DL/$name-$version.crate"
    is_done "$name" "$id" && { log "$name: present ($id)"; return; }
    need curl
    if [[ ! -f "$f" ]]; then
        log "$name: downloading $name-$version.crate"
        curl -fsSL --retry 3 -A "codectx-bench (fetch-corpora.sh)" \
            -o "$TMP/$name.crate" "https://static.crates.io/crates/$name/$name-$version.crate" ||
        curl -fsSL --retry 3 -A "codectx-bench (fetch-corpora.sh)" \
            -o "$TMP/$name.crate" "https://crates.io/api/v1/crates/$name/$version/download" ||
            die "$name: download failed"
        mv "$TMP/$name.crate" "$f"
    fi
    check_sha256 "$f" "$sha"
    mkdir -p "$TMP/crate-$name"
    tar -xzf "$f" -C "$TMP/crate-$name"
    install_tree "$name" "$id" "$TMP/crate-$name/$name-$version"
}

# ---- npm packages (TypeScript sources) --------------------------------------------------
fetch_npm() {
    local name="$1" version="$2" sha="$3"
    local id="$name-$version-src" f="$DL/$name-$version.tgz"
    is_done "$name" "$id" && { log "$name: present ($id)"; return; }
    need npm
    if [[ ! -f "$f" ]]; then
        log "$name: npm pack $name@$version"
        mkdir -p "$TMP/npm-$name"
        (cd "$TMP/npm-$name" && npm pack --silent "$name@$version" >/dev/null 2>"$TMP/npm-$name.err") ||
            { cat "$TMP/npm-$name.err" >&2; die "$name: npm pack failed"; }
        mv "$TMP/npm-$name/"*.tgz "$f"
    fi
    check_sha256 "$f" "$sha"
    mkdir -p "$TMP/pkg-$name" "$TMP/tree-$name"
    tar -xzf "$f" -C "$TMP/pkg-$name"
    [[ -d "$TMP/pkg-$name/package/src" ]] || die "$name@$version ships no src/ directory"
    # keep the TypeScript sources (src/) and the manifest; drop compiled dist output
    mv "$TMP/pkg-$name/package/src" "$TMP/tree-$name/src"
    cp "$TMP/pkg-$name/package/package.json" "$TMP/tree-$name/"
    local nts
    nts="$(find "$TMP/tree-$name/src" -name '*.ts' ! -name '*.d.ts' | wc -l)"
    [[ "$nts" -gt 0 ]] || die "$name@$version: src/ has no .ts files"
    install_tree "$name" "$id" "$TMP/tree-$name"
}

# ---- stats ------------------------------------------------------------------------------
print_stats() {
    need python3
    python3 - "$OUT" "$@" <<'PY'
import os, sys, json
from collections import Counter
out, names = sys.argv[1], sys.argv[2:]
SRC = {".py", ".go", ".rs", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}
summary = {}
for name in names:
    root = os.path.join(out, name)
    if not os.path.isdir(root):
        continue
    exts, nbytes, nfiles = Counter(), 0, 0
    for dp, dns, fns in os.walk(root):
        for fn in fns:
            p = os.path.join(dp, fn)
            if os.path.islink(p) or fn == ".codectx-corpus":
                continue
            nfiles += 1
            nbytes += os.path.getsize(p)
            if fn.endswith(".d.ts"):
                ext = ".d.ts"
            else:
                ext = os.path.splitext(fn)[1].lower() or "(none)"
            exts[ext] += 1
    pin = open(os.path.join(root, ".codectx-corpus")).read().strip()
    top = exts.most_common(8)
    shown = dict(top)
    for e, c in exts.items():
        if e in SRC or e == ".d.ts":
            shown[e] = c
    print(f"{name:8s} {pin:28s} files={nfiles:6d}  {nbytes / 1e6:7.1f} MB  " +
          "  ".join(f"{e}={c}" for e, c in sorted(shown.items(), key=lambda x: -x[1])))
    summary[name] = {"pin": pin, "files": nfiles, "mb": round(nbytes / 1e6, 2), "by_ext": dict(exts)}
with open(os.path.join(out, "stats.json"), "w") as fh:
    json.dump(summary, fh, indent=1, sort_keys=True)
PY
}

ALL=(django go-std tokio syn zod rxjs)
for c in "${ALL[@]}"; do
    wanted "$c" || continue
    case "$c" in
        django) fetch_django ;;
        go-std) fetch_go_std ;;
        tokio)  fetch_crate tokio "$TOKIO_VERSION" "$TOKIO_SHA256" ;;
        syn)    fetch_crate syn "$SYN_VERSION" "$SYN_SHA256" ;;
        zod)    fetch_npm zod "$ZOD_VERSION" "$ZOD_SHA256" ;;
        rxjs)   fetch_npm rxjs "$RXJS_VERSION" "$RXJS_SHA256" ;;
    esac
done

echo "corpora in $OUT:"
print_stats "${ALL[@]}"
