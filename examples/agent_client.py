#!/usr/bin/env python3
"""A small agent-side client for `codectx serve`, using only the Python standard library.

It does what docs/agents.md describes: start `codectx serve` over stdio, initialize with the
workspace root, wait for the first index with `codectx.status {"wait": true}`, call
`codectx.context` for a task and print the context. `CodectxClient` also shows how an agent
keeps the index fresh: `did_open`/`did_change` for files it edits in memory and
`did_change_watched_files` for files it writes to disk.

    python3 examples/agent_client.py --root DIR [--budget N] [--format xml|markdown|json]
        [--server PATH] [--json] "TASK"

The server is `--server`, else `$CODECTX_BIN`, else `codectx` on PATH.
"""

import argparse
import json
import os
import pathlib
import queue
import shutil
import subprocess
import sys
import threading

# Languages codectx indexes, by file extension (the `languageId` of didOpen).
LANGUAGE_IDS = {
    ".py": "python",
    ".js": "javascript",
    ".jsx": "javascriptreact",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".ts": "typescript",
    ".tsx": "typescriptreact",
    ".go": "go",
    ".rs": "rust",
}

# LSP FileChangeType.
CREATED, CHANGED, DELETED = 1, 2, 3


class LspError(Exception):
    """An error answer from the server: `code` is the JSON-RPC error code."""

    def __init__(self, method, error):
        super().__init__(f"{method}: {error.get('message')} ({error.get('code')})")
        self.code = error.get("code")


class CodectxClient:
    """A JSON-RPC client that speaks LSP to one `codectx serve` child process."""

    def __init__(self, server, root, settings=None, timeout=120.0):
        self.root = pathlib.Path(root).resolve()
        self.timeout = timeout
        self.settings = settings or {}
        self._next_id = 0
        self._pending = {}
        self._lock = threading.Lock()
        self._versions = {}
        self.messages = []  # window/showMessage and window/logMessage texts
        if os.sep in server:
            # The server runs in the root directory, so a relative path must not stay relative.
            server = os.path.abspath(server)
        self.process = subprocess.Popen(
            [server, "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=self.root,
        )
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()

    # Transport -----------------------------------------------------------------------------

    def _send(self, message):
        body = json.dumps(message).encode("utf-8")
        with self._lock:
            self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.process.stdin.flush()

    def _read_message(self):
        stream = self.process.stdout
        length = None
        while True:
            line = stream.readline()
            if not line:
                return None
            line = line.strip()
            if not line:
                break
            name, _, value = line.decode("ascii").partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return json.loads(stream.read(length))

    def _read_loop(self):
        while True:
            message = self._read_message()
            if message is None:
                break
            if "id" in message and "method" in message:
                self._answer_server_request(message)
            elif "id" in message:
                waiter = self._pending.pop(message["id"], None)
                if waiter is not None:
                    waiter.put(message)
            elif message.get("method") in ("window/showMessage", "window/logMessage"):
                self.messages.append(message["params"]["message"])
        for waiter in list(self._pending.values()):
            waiter.put({"error": {"code": -32099, "message": "the server exited"}})

    def _answer_server_request(self, message):
        # The server may ask for settings, a progress token or a file watcher registration.
        if message["method"] == "workspace/configuration":
            items = message["params"]["items"]
            result = [self.settings if item.get("section") == "codectx" else None for item in items]
        else:
            result = None
        self._send({"jsonrpc": "2.0", "id": message["id"], "result": result})

    def request(self, method, params, timeout=None):
        """Sends a request and returns its result; raises LspError on an error answer."""
        waiter = queue.Queue(maxsize=1)
        with self._lock:
            self._next_id += 1
            request_id = self._next_id
        self._pending[request_id] = waiter
        self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        try:
            answer = waiter.get(timeout=timeout or self.timeout)
        except queue.Empty:
            raise TimeoutError(f"{method}: no answer in {timeout or self.timeout}s") from None
        if "error" in answer:
            raise LspError(method, answer["error"])
        return answer.get("result")

    def notify(self, method, params):
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    # LSP lifecycle ------------------------------------------------------------------------

    def initialize(self):
        root_uri = self.root.as_uri()
        result = self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "clientInfo": {"name": "codectx-agent-example"},
                "rootUri": root_uri,
                "workspaceFolders": [{"uri": root_uri, "name": self.root.name}],
                "initializationOptions": self.settings,
                "capabilities": {"workspace": {"workspaceFolders": True, "configuration": True}},
            },
        )
        self.notify("initialized", {})
        return result

    def shutdown(self):
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            self.process.wait(timeout=10)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()

    # codectx commands ---------------------------------------------------------------------

    def execute(self, command, *arguments):
        return self.request("workspace/executeCommand", {"command": command, "arguments": list(arguments)})

    def status(self, wait=False):
        """`codectx.status`; with wait=True, answers once the first index is built."""
        return self.execute("codectx.status", {"wait": wait})

    def context(self, query, budget=None, format=None, active_path=None, position=None, intent=None):
        """`codectx.context`: the result object (`text` holds the rendered context)."""
        arguments = {"query": query}
        if budget is not None:
            arguments["budget"] = budget
        if format is not None:
            arguments["format"] = format
        if intent is not None:
            arguments["intent"] = intent
        if active_path is not None:
            arguments["activeUri"] = self.uri(active_path)
            if position is not None:
                line, character = position
                arguments["position"] = {"line": line, "character": character}
        return self.execute("codectx.context", arguments)

    # Keeping the index fresh --------------------------------------------------------------

    def uri(self, path):
        return (self.root / path).resolve().as_uri()

    def did_open(self, path, text):
        """The agent holds `path` in memory: the server indexes `text`, not the disk."""
        uri = self.uri(path)
        self._versions[uri] = 1
        language_id = LANGUAGE_IDS.get(pathlib.Path(path).suffix, "plaintext")
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": language_id, "version": 1, "text": text}},
        )

    def did_change(self, path, text):
        """The agent edited an open file: sends the whole new text (full sync is simplest)."""
        uri = self.uri(path)
        self._versions[uri] += 1
        self.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": uri, "version": self._versions[uri]},
                "contentChanges": [{"text": text}],
            },
        )

    def did_close(self, path):
        uri = self.uri(path)
        self._versions.pop(uri, None)
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    def did_change_watched_files(self, changes):
        """The agent wrote, created or deleted files on disk: [(path, CREATED|CHANGED|DELETED)]."""
        self.notify(
            "workspace/didChangeWatchedFiles",
            {"changes": [{"uri": self.uri(path), "type": kind} for path, kind in changes]},
        )


def find_server(explicit):
    server = explicit or os.environ.get("CODECTX_BIN") or shutil.which("codectx")
    if not server:
        sys.exit("agent_client.py: codectx not found: put it on PATH, set CODECTX_BIN or pass --server PATH")
    return server


def main(argv=None):
    parser = argparse.ArgumentParser(description="Print the codectx context for a task.")
    parser.add_argument("task", help="the task in plain words")
    parser.add_argument("--root", default=".", help="the repository root (default: .)")
    parser.add_argument("--budget", type=int, help="token budget (default: the server's, 8000)")
    parser.add_argument("--format", choices=["xml", "markdown", "json"], help="format of the context text")
    parser.add_argument("--server", help="the codectx binary (default: $CODECTX_BIN, then PATH)")
    parser.add_argument("--json", action="store_true", help="print the whole result object")
    args = parser.parse_args(argv)

    server = find_server(args.server)
    try:
        client = CodectxClient(server, args.root)
    except OSError as err:
        print(f"agent_client.py: cannot start {server}: {err.strerror}; pass --server PATH", file=sys.stderr)
        return 1
    try:
        client.initialize()
        status = client.status(wait=True)
        print(
            f"codectx: {status['files']} files, {status['definitions']} definitions indexed",
            file=sys.stderr,
        )
        result = client.context(args.task, budget=args.budget, format=args.format)
    except (LspError, TimeoutError) as err:
        print(f"agent_client.py: {err}", file=sys.stderr)
        return 1
    finally:
        client.shutdown()
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        budget = result["budget"]
        print(
            f"codectx: intent {result['intent']['kind']}, {budget['used']}/{budget['limit']} tokens",
            file=sys.stderr,
        )
        print(result["text"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
