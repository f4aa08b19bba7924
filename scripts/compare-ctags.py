#!/usr/bin/env python3
"""Definition counts of the codectx index against Universal Ctags (python3 stdlib only).

    scripts/compare-ctags.py CORPUS_DIR... [--codectx BIN] [--ours-dir DIR] [--ctags-dir DIR]

For each corpus, gets codectx's counts from `codectx index --root CORPUS --json` (or from
DIR/<corpus>.codectx.json with --ours-dir) and ctags' from `scripts/ctags-counts.py CORPUS`
(or from DIR/<corpus>.counts.json with --ctags-dir, e.g. /work/bench-data/ctags), and prints
one Markdown table per corpus and language.

The mapping, row by row:
  - A kind row compares codectx's definitions of that kind that are not inside a function or
    method body (`kinds` minus `nested_kinds`) with ctags' "definitions" bucket of
    scripts/ctags-counts.py (top level and members of classes, impls, traits and modules).
  - Some kinds are merged where the two tools split a concept differently (see GROUPS):
    a Python module-level name is a `variable` to ctags and a `constant` or `variable` to
    codectx (by its case); a JS/TS `const` holding a function is a `function` to codectx;
    ctags 5.9 does not tag Rust `const` items.
  - The last three columns add the definitions inside function bodies (codectx
    `nested_kinds`, ctags' "nested" bucket: nested functions, local classes, Rust items in
    a fn body). ctags does not see anonymous functions as scopes, so a type declared in a
    `test("...", () => {...})` callback is top level to ctags and nested to codectx (whose
    test blocks are functions): for JS/TS, compare the last columns.
  - `field` compares codectx's `field` (struct and class fields, enum variants and members)
    with the tags ctags-counts.py excludes as fields: field, enum_member, class_attribute.
  - A kind only one tool has is shown with "-" for the other and no percentage.
By default ctags' tags are counted only in the files codectx indexes (it prunes vendored and
hidden directories and skips files over 1 MiB; ctags does not), so both count the same code.
The percentage is (codectx - ctags) / ctags.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# codectx language name -> ctags language name.
LANGS = {"python": "Python", "go": "Go", "rust": "Rust", "typescript": "TypeScript",
         "tsx": "TypeScript", "javascript": "JavaScript"}

KINDS = ["function", "method", "class", "struct", "enum", "interface", "trait", "impl", "type",
         "constant", "variable", "module", "macro"]

# Per ctags language: row name -> (codectx kinds, ctags kinds) where one concept has two
# names; every other kind is compared with itself.
GROUPS = {
    "Python": {"constant+variable": (["constant", "variable"], ["variable"])},
    "JavaScript": {"function+constant+variable": (["function", "constant", "variable"],
                                                  ["function", "constant", "variable"])},
    "TypeScript": {"function+constant+variable": (["function", "constant", "variable"],
                                                  ["function", "constant", "variable"])},
    # ctags 5.9 tags `static` items as variables and does not tag `const` items at all.
    "Rust": {"constant+variable": (["constant", "variable"], ["variable"])},
}

FIELD_EXCLUDED = ["field", "enum_member", "class_attribute"]


def codectx_counts(corpus: str, binary: str, ours_dir: str | None) -> dict:
    name = os.path.basename(os.path.normpath(corpus))
    if ours_dir:
        with open(os.path.join(ours_dir, f"{name}.codectx.json"), encoding="utf-8") as fh:
            return json.load(fh)
    out = subprocess.run([binary, "index", "--root", corpus, "--json"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


# The directories `codectx index` prunes (server/src/index/walk.rs, VENDORED_DIRS), and its
# default size limit; ctags sees everything, so its tags in those files are dropped.
VENDORED_DIRS = {"node_modules", "target", ".venv", "venv", "vendor", "dist", "build",
                 "__pycache__", "site-packages"}
MAX_FILE_SIZE = 1024 * 1024


def load_ctags_counts_module():
    spec = importlib.util.spec_from_file_location("ctags_counts", os.path.join(HERE, "ctags-counts.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def indexed_by_codectx(corpus: str, path: str) -> bool:
    """Whether codectx's walker would index this file (pruned dirs, hidden dirs, size)."""
    parent = os.path.dirname(os.path.normpath(corpus))
    relative = os.path.relpath(os.path.join(parent, path), corpus)
    parts = relative.split(os.sep)
    if any(part in VENDORED_DIRS or part.startswith(".") for part in parts[:-1]):
        return False
    try:
        return os.path.getsize(os.path.join(corpus, relative)) <= MAX_FILE_SIZE
    except OSError:
        return True


def ctags_counts(corpus: str, ctags_dir: str | None, same_files: bool) -> dict:
    """ctags' counts, over the files codectx indexes when `same_files`."""
    name = os.path.basename(os.path.normpath(corpus))
    if ctags_dir and not same_files:
        with open(os.path.join(ctags_dir, f"{name}.counts.json"), encoding="utf-8") as fh:
            return json.load(fh)
    if ctags_dir:
        with open(os.path.join(ctags_dir, f"{name}.json"), encoding="utf-8", errors="replace") as fh:
            lines = fh.readlines()
    else:
        with tempfile.TemporaryDirectory() as tmp:
            tags = os.path.join(tmp, "tags.json")
            # ctags-counts.py runs ctags from the corpus' parent, so paths start with its name.
            subprocess.run([sys.executable, os.path.join(HERE, "ctags-counts.py"), name,
                            "--save-tags", tags], check=True, capture_output=True,
                           cwd=os.path.dirname(os.path.abspath(corpus)))
            with open(tags, encoding="utf-8", errors="replace") as fh:
                lines = fh.readlines()
    if same_files:
        kept = []
        for line in lines:
            try:
                tag = json.loads(line)
            except json.JSONDecodeError:
                continue
            if indexed_by_codectx(corpus, tag.get("path", "")):
                kept.append(line)
        lines = kept
    return load_ctags_counts_module().count(lines)


def merge_ours(ours: dict) -> dict[str, dict]:
    """codectx languages merged per ctags language: files, top-level kinds, nested kinds."""
    res: dict[str, dict] = {}
    for lang, counts in ours["languages"].items():
        ctags_lang = LANGS.get(lang)
        if not ctags_lang:
            continue
        entry = res.setdefault(ctags_lang, {"files": 0, "kinds": {}, "nested": {}})
        entry["files"] += counts["files"]
        nested = counts.get("nested_kinds", {})
        for kind, n in counts.get("kinds", {}).items():
            entry["kinds"][kind] = entry["kinds"].get(kind, 0) + n - nested.get(kind, 0)
        for kind, n in nested.items():
            entry["nested"][kind] = entry["nested"].get(kind, 0) + n
    return res


def pct(ours: int, theirs: int) -> str:
    if theirs == 0:
        return "-" if ours == 0 else "n/a"
    return f"{100.0 * (ours - theirs) / theirs:+.1f}%"


def rows_for(lang: str, ours: dict, theirs: dict) -> list[tuple[str, ...]]:
    """Rows: kind, then codectx, ctags and diff outside function bodies, then the same
    including definitions nested in function bodies."""
    ours_top = ours["kinds"]
    ours_all = {k: ours_top.get(k, 0) + ours["nested"].get(k, 0)
                for k in set(ours_top) | set(ours["nested"])}
    their_top = theirs.get("definitions", {})
    their_all = {k: their_top.get(k, 0) + theirs.get("nested", {}).get(k, 0)
                 for k in set(their_top) | set(theirs.get("nested", {}))}
    groups = dict(GROUPS.get(lang, {}))
    grouped = {k for names, _ in groups.values() for k in names} | \
              {k for _, names in groups.values() for k in names}
    for kind in KINDS:
        if kind not in grouped and (ours_all.get(kind) or their_all.get(kind)):
            groups[kind] = ([kind], [kind])

    def row(name: str, our_names: list[str], their_names: list[str]) -> tuple[str, ...]:
        a1 = sum(ours_top.get(k, 0) for k in our_names)
        b1 = sum(their_top.get(k, 0) for k in their_names)
        a2 = sum(ours_all.get(k, 0) for k in our_names)
        b2 = sum(their_all.get(k, 0) for k in their_names)
        return (name, str(a1), str(b1), pct(a1, b1), str(a2), str(b2), pct(a2, b2))

    rows = [row(name, o, t) for name, (o, t) in groups.items()]
    all_ours = [k for k in ours_all if k != "field"]
    rows.append(row("**all but fields**", all_ours, list(their_all)))
    a = ours_all.get("field", 0)
    b = sum(theirs.get("excluded", {}).get(k, 0) for k in FIELD_EXCLUDED)
    rows.append(("field", "", "", "", str(a), str(b), pct(a, b)))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpora", nargs="+", help="corpus directories")
    ap.add_argument("--codectx", default=os.path.join(HERE, "..", "target", "release", "codectx"),
                    help="the codectx binary (default: target/release/codectx)")
    ap.add_argument("--ours-dir", help="read <corpus>.codectx.json from DIR instead of running codectx")
    ap.add_argument("--ctags-dir", help="read ctags' saved <corpus>.json tags (or, with --all-files, "
                    "<corpus>.counts.json) from DIR instead of running ctags")
    ap.add_argument("--all-files", action="store_true",
                    help="count every file ctags tags, not only those codectx indexes")
    args = ap.parse_args()
    for corpus in args.corpora:
        name = os.path.basename(os.path.normpath(corpus))
        ours = merge_ours(codectx_counts(corpus, args.codectx, args.ours_dir))
        theirs = ctags_counts(corpus, args.ctags_dir, not args.all_files)["languages"]
        for lang in sorted(set(ours) | set(theirs)):
            o = ours.get(lang, {"files": 0, "kinds": {}, "nested": {}})
            t = theirs.get(lang, {"files": 0})
            print(f"#### {name}: {lang} (files: codectx {o['files']}, ctags {t['files']})\n")
            print("| kind | codectx | ctags | diff | codectx incl. nested | ctags incl. nested | diff |")
            print("|---|---:|---:|---:|---:|---:|---:|")
            for row in rows_for(lang, o, t):
                print("| " + " | ".join(row) + " |")
            print()


if __name__ == "__main__":
    main()
