"""Checks that examples/agent_client.py keeps the index fresh, as docs/agents.md tells agents
to: a file written to disk after startup (workspace/didChangeWatchedFiles), a file held in
memory (didOpen) and then edited (didChange) are all found by codectx.context.

    python3 tests/agent/freshness.py --server BIN --root DIR   (DIR is a scratch copy)

Prints one line per check and exits with 1 on the first failure.
"""

import argparse
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "examples"))

import agent_client  # noqa: E402


def top_symbols(result):
    return [(item["path"], item["symbol"]) for item in result["items"]][:5]


def check(label, result, expected):
    symbols = top_symbols(result)
    if expected not in symbols:
        print(f"FAIL {label}: {expected} not in {symbols}")
        sys.exit(1)
    print(f"ok {label}: {expected}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--root", required=True)
    args = parser.parse_args()
    root = pathlib.Path(args.root)

    client = agent_client.CodectxClient(args.server, root, timeout=60)
    try:
        client.initialize()
        status = client.status(wait=True)
        assert status["state"] == "ready", status

        # The agent writes a new file to disk, then tells the server.
        (root / "shop" / "zebra.py").write_text("def reconcile_zebra_ledger(entries):\n    return sum(entries)\n")
        client.did_change_watched_files([("shop/zebra.py", agent_client.CREATED)])
        result = client.context("fix reconcile_zebra_ledger", budget=1000)
        check("written file", result, ("shop/zebra.py", "reconcile_zebra_ledger"))

        # The agent holds a file in memory (never saved), then edits it.
        client.did_open("shop/yak.py", "def groom_yak_fleece(yak):\n    return yak\n")
        result = client.context("fix groom_yak_fleece", budget=1000)
        check("opened buffer", result, ("shop/yak.py", "groom_yak_fleece"))
        client.did_change("shop/yak.py", "def shear_yak_wool(yak):\n    return yak\n")
        result = client.context("fix shear_yak_wool", budget=1000, active_path="shop/yak.py", position=(0, 4))
        check("edited buffer", result, ("shop/yak.py", "shear_yak_wool"))
        stale = [item for item in result["items"] if item["symbol"] == "groom_yak_fleece"]
        if stale:
            print(f"FAIL edited buffer: the old definition is still indexed: {stale}")
            sys.exit(1)
    finally:
        client.shutdown()
    print("ok all")


if __name__ == "__main__":
    main()
