#!/usr/bin/env python3
"""Reference definition counts for a corpus, from Universal Ctags (python3 stdlib only).

    scripts/ctags-counts.py CORPUS_DIR [--table] [--save-tags FILE] [--from-tags FILE]

Runs
    ctags -R --languages=Python,Go,Rust,TypeScript,JavaScript --output-format=json
          --fields=+nKzlsZpEe --extras=+f -f - CORPUS_DIR
and prints JSON: per language, the number of files and of definition-like tags, mapped to the
definition kinds of the codectx index (function, method, class, struct, enum, interface,
trait, impl, type, constant, variable, module, macro), plus what was set aside:

  definitions  top-level definitions and callable/type members of classes, impls, traits,
               modules and namespaces (methods, nested classes, associated types)
  nested       definitions inside function or method bodies (nested functions, classes
               defined in a test method, Rust items in a fn body, TS/JS locals ctags tags)
  excluded     tags that are not definitions for the index: fields / properties / members,
               enum members, class attributes, interface method signatures, imports,
               package clauses, anonymous functions/objects
  ctags_kinds  the raw "<kind>@<scopeKind>" counts, to remap differently later

and the ctags run itself: version, wall time, peak RSS of the ctags process, total tags.
With --from-tags, reads a saved ctags JSON output instead of running ctags (no timing).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict

LANGUAGES = ["Python", "Go", "Rust", "TypeScript", "JavaScript"]

# Scopes that are function bodies: a definition inside one is "nested".
CALLABLE_SCOPES = {"function", "method", "member", "generator", "getter", "setter", "func"}


def classify(lang: str, kind: str, scope_kind: str | None, anonymous: bool) -> tuple[str, str | None]:
    """-> (bucket, canonical kind); bucket is definitions | nested | excluded | file."""
    sk = scope_kind or ""
    if kind == "file":
        return "file", None
    if anonymous:
        return "excluded", "anonymous"
    nested = sk in CALLABLE_SCOPES

    def d(canon: str) -> tuple[str, str]:
        return ("nested" if nested else "definitions"), canon

    if lang == "Python":
        # member = a def in a class body (method); variable@class = class attribute
        if kind == "class":
            return d("class")
        if kind == "member":
            return "definitions", "method"
        if kind == "function":
            return d("function")
        if kind == "variable":
            if not sk:
                return "definitions", "variable"
            return ("nested", "variable") if nested else ("excluded", "class_attribute")
        if kind in ("namespace", "unknown", "module"):
            return "excluded", "import"
        return "excluded", kind
    if lang == "Go":
        if kind == "func":
            if sk in ("", "package"):
                return "definitions", "function"
            return "definitions", "method"  # receiver scope: struct, type, talias, unknown (other file)
        simple = {"struct": "struct", "interface": "interface", "type": "type", "talias": "type",
                  "const": "constant", "var": "variable"}
        if kind in simple:
            return d(simple[kind])
        if kind in ("member", "anonMember"):
            return "excluded", "field"
        if kind == "methodSpec":
            return "excluded", "interface_method_spec"
        if kind in ("package", "packageName", "unknown"):
            return "excluded", "package_or_import"
        return "excluded", kind
    if lang == "Rust":
        simple = {"function": "function", "method": "method", "implementation": "impl",
                  "interface": "trait", "struct": "struct", "enum": "enum", "typedef": "type",
                  "variable": "variable", "module": "module", "macro": "macro"}
        if kind == "function" and sk in ("implementation", "interface"):
            return "definitions", "method"
        if kind in simple:
            return d(simple[kind])  # variable = `static` item; ctags 5.9 does not tag `const` items
        if kind == "field":
            return "excluded", "field"
        if kind == "enumerator":
            return "excluded", "enum_member"
        return "excluded", kind
    if lang == "TypeScript":
        simple = {"function": "function", "generator": "function", "class": "class",
                  "interface": "interface", "enum": "enum", "alias": "type", "namespace": "module",
                  "constant": "constant", "variable": "variable"}
        if kind == "method":
            if sk == "interface":
                return "excluded", "interface_method_signature"
            return "definitions", "method"
        if kind in simple:
            return d(simple[kind])
        if kind == "property":
            return "excluded", "field"
        if kind == "enumerator":
            return "excluded", "enum_member"
        return "excluded", kind
    if lang == "JavaScript":
        simple = {"function": "function", "generator": "function", "class": "class",
                  "constant": "constant", "variable": "variable"}
        if kind in ("method", "getter", "setter"):
            return "definitions", "method"
        if kind in simple:
            if kind in ("constant", "variable") and sk == "class":
                return "excluded", "field"
            return d(simple[kind])
        if kind in ("property", "field"):
            return "excluded", "field"
        return "excluded", kind
    return "excluded", kind


def ctags_version(ctags: str) -> str:
    try:
        out = subprocess.run([ctags, "--version"], capture_output=True, text=True, check=True).stdout
        return out.splitlines()[0].strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def run_ctags(ctags: str, corpus: str, save: str | None, extra: list[str]):
    cmd = [ctags, "-R", "--languages=" + ",".join(LANGUAGES), "--map-JavaScript=+.cjs",
           "--output-format=json", "--fields=+nKzlsZpEe", "--extras=+f", *extra, "-f", "-", corpus]
    # Peak RSS: GNU time measures ctags alone. Without it, getrusage(RUSAGE_CHILDREN) also
    # counts this Python process's footprint, inherited by the child until exec (~15 MB).
    gnu_time = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
    time_out = None
    run_cmd = cmd
    if gnu_time:
        fd, time_out = tempfile.mkstemp(prefix="ctags-time.")
        os.close(fd)
        run_cmd = [gnu_time, "-f", "%M", "-o", time_out, *cmd]
    t0 = time.perf_counter()
    proc = subprocess.Popen(run_cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            encoding="utf-8", errors="replace")
    lines = []
    assert proc.stdout is not None
    for line in proc.stdout:
        lines.append(line)
    stderr = proc.stderr.read() if proc.stderr else ""
    rc = proc.wait()
    wall = time.perf_counter() - t0
    rss_kb, rss_how = None, "getrusage(RUSAGE_CHILDREN), includes the Python parent at spawn"
    if time_out:
        try:
            with open(time_out) as fh:
                rss_kb = int(fh.read().split()[-1])
            rss_how = "GNU time %M"
        except (OSError, ValueError, IndexError):
            pass
        os.unlink(time_out)
    if rss_kb is None:
        rss_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KB on Linux
    if rc != 0:
        sys.stderr.write(stderr)
        raise SystemExit(f"ctags failed with status {rc}: {' '.join(cmd)}")
    warnings = [w for w in stderr.splitlines() if w.strip()]
    if save:
        with open(save, "w", encoding="utf-8") as fh:
            fh.writelines(lines)
    info = {"version": ctags_version(ctags), "cmd": cmd, "wall_s": round(wall, 3),
            "max_rss_mb": round(rss_kb / 1024, 1), "rss_measured_by": rss_how,
            "warnings": len(warnings)}
    return lines, info


def count(lines) -> dict:
    langs: dict[str, dict] = defaultdict(lambda: {
        "files": 0, "definitions": Counter(), "nested": Counter(), "excluded": Counter(),
        "ctags_kinds": Counter()})
    ntags = 0
    for line in lines:
        line = line.strip()
        if not line:
            continue
        try:
            tag = json.loads(line)
        except json.JSONDecodeError:
            continue
        if tag.get("_type") != "tag":
            continue
        ntags += 1
        lang = tag.get("language", "?")
        kind = tag.get("kind", "?")
        sk = tag.get("scopeKind")
        anon = "anonymous" in (tag.get("extras") or "")
        e = langs[lang]
        e["ctags_kinds"][f"{kind}@{sk}" if sk else kind] += 1
        bucket, canon = classify(lang, kind, sk, anon)
        if bucket == "file":
            e["files"] += 1
        else:
            e[bucket][canon] += 1
    out = {}
    for lang in sorted(langs):
        e = langs[lang]
        out[lang] = {
            "files": e["files"],
            "definitions_total": sum(e["definitions"].values()),
            "definitions": dict(e["definitions"].most_common()),
            "nested_total": sum(e["nested"].values()),
            "nested": dict(e["nested"].most_common()),
            "excluded": dict(e["excluded"].most_common()),
            "ctags_kinds": dict(sorted(e["ctags_kinds"].items())),
        }
    return {"tags": ntags, "languages": out,
            "total": {"files": sum(v["files"] for v in out.values()),
                      "definitions": sum(v["definitions_total"] for v in out.values()),
                      "nested": sum(v["nested_total"] for v in out.values())}}


def print_table(res: dict) -> None:
    kinds = ["function", "method", "class", "struct", "enum", "interface", "trait", "impl",
             "type", "constant", "variable", "module", "macro"]
    c = res.get("ctags", {})
    print(f"# {res['corpus']}  tags={res['tags']}" +
          (f"  ctags wall={c['wall_s']}s rss={c['max_rss_mb']}MB" if "wall_s" in c else ""))
    hdr = ["language", "files", "defs", "nested"] + kinds
    print("| " + " | ".join(hdr) + " |")
    print("|" + "|".join("---" for _ in hdr) + "|")
    for lang, v in res["languages"].items():
        row = [lang, v["files"], v["definitions_total"], v["nested_total"]] + \
              [v["definitions"].get(k, 0) for k in kinds]
        print("| " + " | ".join(str(x) for x in row) + " |")
    for lang, v in res["languages"].items():
        if v["excluded"]:
            print(f"excluded {lang}: " + ", ".join(f"{k}={n}" for k, n in v["excluded"].items()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", help="corpus directory")
    ap.add_argument("--ctags", default=os.environ.get("CTAGS", "ctags"), help="ctags binary (Universal Ctags)")
    ap.add_argument("--save-tags", metavar="FILE", help="also write ctags' raw JSON output to FILE")
    ap.add_argument("--from-tags", metavar="FILE", help="count a saved ctags JSON output instead of running ctags")
    ap.add_argument("--ctags-arg", action="append", default=[], help="extra argument for ctags (repeatable)")
    ap.add_argument("--table", action="store_true", help="print a markdown table instead of JSON")
    args = ap.parse_args()

    if args.from_tags:
        with open(args.from_tags, encoding="utf-8", errors="replace") as fh:
            lines = fh.readlines()
        info = {"from": os.path.abspath(args.from_tags)}
    else:
        if not os.path.isdir(args.corpus):
            raise SystemExit(f"not a directory: {args.corpus}")
        lines, info = run_ctags(args.ctags, args.corpus, args.save_tags, args.ctags_arg)
    res = {"corpus": os.path.abspath(args.corpus), "ctags": info}
    res.update(count(lines))
    if args.table:
        print_table(res)
    else:
        json.dump(res, sys.stdout, indent=1)
        print()


if __name__ == "__main__":
    main()
