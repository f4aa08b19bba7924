//! Stack traces and `file:line` mentions in a query: Python tracebacks, JS/TS stack
//! frames, Go panics and goroutine dumps, Rust panics and backtraces; and the messages of
//! pasted error lines.
//!
//! Invariant: frames are returned innermost first; nothing here knows the index.

/// One frame (or `file:line` mention) of a trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceFrame {
    /// The path as written in the trace and the 1-based line; none for a frame that names
    /// only its function (a Rust backtrace of a build without debug information:
    /// `4: app::util::max`).
    pub at: Option<(String, u32)>,
    /// The function as written; for a Rust backtrace's frame without a location, its path
    /// from the crate's root without closures, hashes and generic arguments
    /// (`app::Store::get`).
    pub function: Option<String>,
}

const SOURCE_EXTENSIONS: &[&str] = &[
    ".py", ".pyi", ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".go", ".rs",
];

fn is_source_path(path: &str) -> bool {
    SOURCE_EXTENSIONS.iter().any(|ext| path.ends_with(ext))
}

/// Extracts the frames of every trace in `text`, innermost first.
pub fn parse_frames(text: &str) -> Vec<TraceFrame> {
    let python = python_frames(text);
    if !python.is_empty() {
        return python;
    }
    let mut frames = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let rust_backtrace = text.contains("stack backtrace:") || text.contains("panicked at ");
    for (idx, line) in lines.iter().enumerate() {
        let trimmed = line.trim();
        // A Rust backtrace's frame that names only its function (no `at path:line` below it:
        // a build without debug information).
        if rust_backtrace {
            if let Some(symbol) = rust_backtrace_symbol(trimmed) {
                let located = lines
                    .get(idx + 1)
                    .is_some_and(|next| is_backtrace_location(next));
                if !located && !is_rust_runtime(&symbol) {
                    frames.push(TraceFrame {
                        at: None,
                        function: Some(symbol),
                    });
                }
                continue;
            }
        }
        if let Some((function, location)) = js_location(trimmed) {
            if let Some((path, line_no)) = path_line(location) {
                // A Rust backtrace's `at ./src/x.rs:10:5` is below its function's line.
                let function = function.map(str::to_owned).or_else(|| {
                    let above = lines.get(idx.checked_sub(1)?)?;
                    rust_backtrace_symbol(above.trim())
                });
                frames.push(TraceFrame {
                    at: Some((path, line_no)),
                    function,
                });
                continue;
            }
        }
        if let Some(location) = panic_location(trimmed) {
            if let Some((path, line_no)) = path_line(location) {
                frames.push(TraceFrame {
                    at: Some((path, line_no)),
                    function: None,
                });
                continue;
            }
        }
        if let Some(location) = backtrace_location(line) {
            if let Some((path, line_no)) = path_line(location) {
                let function = idx
                    .checked_sub(1)
                    .map(|prev| lines[prev].trim())
                    .map(|prev| prev.split_once(": ").map_or(prev, |(_, name)| name))
                    .map(
                        |prev| match prev.strip_suffix(')').and_then(|p| p.rsplit_once('(')) {
                            Some((name, _)) => name,
                            None => prev,
                        },
                    )
                    .map(|name| name.rsplit('/').next().unwrap_or(name).trim().to_owned())
                    .filter(|name| !name.is_empty());
                frames.push(TraceFrame {
                    at: Some((path, line_no)),
                    function,
                });
                continue;
            }
        }
        // Plain `path/file.ext:123` mentions anywhere in the line.
        for word in trimmed.split(|ch: char| ch.is_whitespace() || "()[]{}<>\"'`,;".contains(ch)) {
            if let Some((path, line_no)) = path_line(word.trim_end_matches(['.', ':'])) {
                frames.push(TraceFrame {
                    at: Some((path, line_no)),
                    function: None,
                });
            }
        }
    }
    frames.dedup();
    frames
}

/// The function a Rust backtrace's frame line names (`4: app::util::max`, with `RUST_BACKTRACE=full`
/// `4:     0x55d1 - app::util::max::h0123456789abcdef`), as a path from its crate's root
/// without closures, symbol hashes and generic arguments (`<app::Store as app::Get>::get` ->
/// `app::Store::get`).
pub fn rust_backtrace_symbol(trimmed: &str) -> Option<String> {
    let (number, rest) = trimmed.split_once(':')?;
    if number.is_empty() || !number.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    let rest = rest.trim_start();
    let rest = match rest.split_once(" - ") {
        Some((address, symbol)) if address.starts_with("0x") => symbol,
        _ => rest,
    };
    // `<Type as Trait>::method` is the type's method.
    let rest = rest.trim();
    if rest.is_empty() || !rest.contains("::") {
        return None;
    }
    let unqualified = match rest.strip_prefix('<') {
        Some(inner) => {
            let close = matching_angle(inner)?;
            let (target, after) = (&inner[..close], &inner[close + 1..]);
            let own = target.split(" as ").next().unwrap_or(target);
            format!("{own}{after}")
        }
        None => rest.to_owned(),
    };
    if unqualified.contains(char::is_whitespace) {
        return None;
    }
    let mut plain = String::with_capacity(unqualified.len());
    let mut depth = 0usize;
    for ch in unqualified.chars() {
        match ch {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            _ if depth == 0 => plain.push(ch),
            _ => {}
        }
    }
    let segments: Vec<&str> = plain
        .split("::")
        .filter(|segment| !segment.is_empty())
        .filter(|segment| !segment.starts_with('{'))
        .filter(|segment| !is_symbol_hash(segment))
        .collect();
    let identifiers = segments
        .iter()
        .all(|segment| segment.chars().all(|ch| ch.is_alphanumeric() || ch == '_'));
    (segments.len() > 1 && identifiers).then(|| segments.join("::"))
}

/// The position of the `>` closing the `<` just before `text`.
fn matching_angle(text: &str) -> Option<usize> {
    let mut depth = 1usize;
    for (at, ch) in text.char_indices() {
        match ch {
            '<' => depth += 1,
            '>' => {
                depth -= 1;
                if depth == 0 {
                    return Some(at);
                }
            }
            _ => {}
        }
    }
    None
}

/// A legacy mangled symbol's hash segment (`h0123456789abcdef`).
fn is_symbol_hash(segment: &str) -> bool {
    segment.len() == 17
        && segment.starts_with('h')
        && segment[1..].bytes().all(|byte| byte.is_ascii_hexdigit())
}

/// Frames of the standard library and the runtime's unwinding: no code of a repository.
fn is_rust_runtime(symbol: &str) -> bool {
    let first = symbol.split("::").next().unwrap_or(symbol);
    matches!(first, "std" | "core" | "alloc" | "backtrace") || first.starts_with("__")
}

/// Whether a line of a trace says where a frame is (Python's `File "...", line 12, in f`,
/// JavaScript's `at f (path:3:5)`, a Go or Rust backtrace's `\t/path/x.go:57 +0x1d`, Rust's
/// `thread 'main' panicked at src/x.rs:88:9:`): its words are the trace's syntax and the
/// path's directories, not the task's.
pub fn is_frame_location(line: &str) -> bool {
    let trimmed = line.trim();
    if let Some(rest) = trimmed.strip_prefix("File \"") {
        return rest.contains("\", line ");
    }
    if rust_backtrace_symbol(trimmed).is_some() {
        return true;
    }
    [
        js_location(trimmed).map(|(_, location)| location),
        panic_location(trimmed),
        backtrace_location(line),
    ]
    .into_iter()
    .flatten()
    .any(|location| path_line(location).is_some())
}

/// A JavaScript frame's function and location: `at fn (path:line:col)` or
/// `at path:line:col`.
fn js_location(trimmed: &str) -> Option<(Option<&str>, &str)> {
    let rest = trimmed.strip_prefix("at ")?;
    Some(match rest.rfind(" (") {
        Some(open) if rest.ends_with(')') => {
            (Some(rest[..open].trim()), &rest[open + 2..rest.len() - 1])
        }
        _ => (None, rest),
    })
}

/// A Rust panic message's location: `panicked at src/x.rs:88:9:`.
fn panic_location(trimmed: &str) -> Option<&str> {
    let pos = trimmed.find("panicked at ")?;
    let location = trimmed[pos + "panicked at ".len()..].trim_end_matches(':');
    location.split([' ', ',']).next()
}

/// Whether a line is the message the Rust standard library panics with when an `Option` or
/// a `Result` is unwrapped (`called `Option::unwrap()` on a `None` value`, `called
/// `Result::unwrap()` on an `Err` value: ...`): its names are the library's, not the
/// repository's, and the repository holds none of its text.
pub fn is_std_unwrap_message(line: &str) -> bool {
    let trimmed = line.trim();
    ["called `Option::", "called `Result::"]
        .iter()
        .any(|opening| trimmed.starts_with(opening))
        && (trimmed.contains("` on a `") || trimmed.contains("` on an `"))
}

/// The query with the standard library's unwrap messages (see [`is_std_unwrap_message`])
/// blanked, offsets kept: their words and names are not the task's, while the frames and
/// the location above them stay.
pub fn without_std_unwrap_messages(query: &str) -> std::borrow::Cow<'_, str> {
    if !query.lines().any(is_std_unwrap_message) {
        return std::borrow::Cow::Borrowed(query);
    }
    query
        .split_inclusive('\n')
        .map(|line| {
            if is_std_unwrap_message(line) {
                line.chars()
                    .map(|ch| if ch == '\n' { ch } else { ' ' })
                    .collect()
            } else {
                line.to_owned()
            }
        })
        .collect::<String>()
        .into()
}

/// Whether a line is a Rust panic's location line, `thread 'main' panicked at
/// src/x.rs:88:9:`, whose message is the next line (since Rust 1.73).
pub fn opens_panic_message(line: &str) -> bool {
    let trimmed = line.trim();
    trimmed.ends_with(':') && panic_location(trimmed).is_some_and(|at| path_line(at).is_some())
}

/// Whether a line is a backtrace's location line, below its function's line (see
/// `backtrace_location`).
pub fn is_backtrace_location(line: &str) -> bool {
    backtrace_location(line).is_some_and(|location| path_line(location).is_some())
}

/// A backtrace's location line, below the function's: a Go goroutine dump's
/// `\t/path/file.go:57 +0x1d`, a Rust backtrace's `at ./src/x.rs:10:5`.
fn backtrace_location(line: &str) -> Option<&str> {
    let trimmed = line.trim();
    if !(line.starts_with('\t') || trimmed.starts_with("at ")) {
        return None;
    }
    trimmed.trim_start_matches("at ").split(' ').next()
}

/// Python tracebacks list the outermost call first; reverse them.
fn python_frames(text: &str) -> Vec<TraceFrame> {
    let mut frames = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        let Some(rest) = trimmed.strip_prefix("File \"") else {
            continue;
        };
        let Some((path, rest)) = rest.split_once('"') else {
            continue;
        };
        let rest = rest.trim_start_matches(',').trim();
        let Some(rest) = rest.strip_prefix("line ") else {
            continue;
        };
        let (line_no, function) = match rest.split_once(", in ") {
            Some((line_no, function)) => (line_no, Some(function.trim().to_owned())),
            None => (rest, None),
        };
        if let Ok(line_no) = line_no.trim().parse::<u32>() {
            frames.push(TraceFrame {
                at: Some((path.to_owned(), line_no)),
                function,
            });
        }
    }
    frames.reverse();
    frames
}

/// `path:line` or `path:line:col` with a source extension.
fn path_line(location: &str) -> Option<(String, u32)> {
    let location = location.trim().trim_start_matches("file://");
    let mut parts = location.rsplitn(3, ':');
    let last = parts.next()?;
    let middle = parts.next()?;
    let (path, line) = match parts.next() {
        Some(path) if middle.parse::<u32>().is_ok() && last.parse::<u32>().is_ok() => {
            (path, middle)
        }
        _ => (middle, last),
    };
    let line: u32 = line.parse().ok()?;
    (is_source_path(path) && line > 0).then(|| (path.to_owned(), line))
}

/// Whether the text reads like a pasted error log even without frames.
pub fn looks_like_error_log(text: &str) -> bool {
    text.lines().any(|line| {
        let line = line.trim_start();
        line.starts_with("Traceback (most recent call last)")
            || line.starts_with("panic: ")
            || line.starts_with("goroutine ")
            || line.contains("panicked at")
            || (line.contains("Error: ") && text.lines().count() > 1)
            || line.starts_with("Uncaught ")
            || thrown_at_start(line)
    })
}

/// Whether a line opens with an exception and its message, as the last line of a trace
/// does (`TypeError: x is not a function`, `httpx.ConnectError: [Errno 111] ...`).
fn thrown_at_start(line: &str) -> bool {
    error_report(line).is_some_and(|(name, _)| {
        line.starts_with(name)
            && ["Error", "Exception"]
                .iter()
                .any(|suffix| name.len() > suffix.len() && name.ends_with(suffix))
    })
}

/// The message of a line that reports an error: `<Name>Error: message` (also `Exception`,
/// `Warning`, or any class by its dotted path: `requests.exceptions.InvalidURL`), or
/// `panic:`, `error:`, `fatal:` in any case, with an optional `[code]` (`error[E0599]:`).
pub fn error_message(line: &str) -> Option<&str> {
    error_report(line).map(|(_, message)| message)
}

/// The exception a line reports, as written (`httpx.ConnectError`, `ValueError`), when it
/// reports one by name (see [`error_message`]; not `panic:` or `error:`).
pub fn exception_name(line: &str) -> Option<&str> {
    let (head, _) = error_report(line)?;
    let name = head.split_once('[').map_or(head, |(name, _)| name);
    let plain = ["panic", "error", "fatal"]
        .iter()
        .any(|word| name.eq_ignore_ascii_case(word));
    (!plain).then_some(name)
}

/// An error report's name (the word before the `: `, as written) and message.
fn error_report(line: &str) -> Option<(&str, &str)> {
    // The name is the word before a `: ` (a log line's time and level come before it).
    line.match_indices(": ").find_map(|(at, _)| {
        let head = line[..at].rsplit(char::is_whitespace).next()?;
        error_name(head).then(|| (head, &line[at + 2..]))
    })
}

/// Whether `head` (the word before a `: `) names an error: see [`error_message`].
fn error_name(head: &str) -> bool {
    let head = head.split_once('[').map_or(head, |(name, _)| name);
    let name = head.rsplit('.').next().unwrap_or(head);
    let is_error = ["Error", "Exception", "Warning"]
        .iter()
        .any(|suffix| name.len() > suffix.len() && name.ends_with(suffix))
        || (head.contains('.') && name.starts_with(|ch: char| ch.is_ascii_uppercase()))
        || ["panic", "error", "fatal"]
            .iter()
            .any(|word| name.eq_ignore_ascii_case(word));
    is_error && !head.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(text: &str) -> Vec<String> {
        parse_frames(text)
            .into_iter()
            .map(|frame| {
                let (path, line) = frame.at.unwrap_or_default();
                format!("{path}:{line} {}", frame.function.unwrap_or_default())
            })
            .collect()
    }

    #[test]
    fn python_tracebacks_are_reversed_to_innermost_first() {
        let text = "Traceback (most recent call last):\n  File \"/home/dev/shop/api/views.py\", line 12, in checkout\n    svc.place_order(cart)\n  File \"/home/dev/shop/db.py\", line 42, in connect\n    raise ValueError\nValueError: empty url\n";
        assert_eq!(
            frames(text),
            [
                "/home/dev/shop/db.py:42 connect",
                "/home/dev/shop/api/views.py:12 checkout"
            ]
        );
    }

    #[test]
    fn the_exception_a_line_reports_is_named_as_written() {
        assert_eq!(
            exception_name("httpx.ConnectError: [Errno 111] Connection refused"),
            Some("httpx.ConnectError")
        );
        assert_eq!(
            exception_name("2024-01-02 ERROR ValueError: empty url"),
            Some("ValueError")
        );
        assert_eq!(exception_name("panic: store is closed"), None);
        assert_eq!(exception_name("error[E0599]: no method named `x`"), None);
        assert_eq!(exception_name("the value: 3"), None);
        // A line opening with an exception and its message is an error log on its own.
        assert!(looks_like_error_log("TypeError: x is not a function"));
        assert!(looks_like_error_log(
            "httpx.ConnectError: [Errno 111] Connection refused"
        ));
        assert!(!looks_like_error_log("Warning: the cache is cold"));
        assert!(!looks_like_error_log(
            "add a ConnectError: raised on refusal"
        ));
    }

    #[test]
    fn the_lines_that_locate_frames_are_told_from_the_others() {
        assert!(is_frame_location(
            "  File \"/app/main.py\", line 12, in <module>"
        ));
        assert!(!is_frame_location("    r = client.get(url)"));
        assert!(is_frame_location(
            "    at Cart.addItem (/home/dev/acme/src/cart.ts:31:11)"
        ));
        assert!(is_frame_location("    at /home/dev/acme/src/index.ts:5:3"));
        assert!(is_frame_location(
            "\t/home/dev/kvstore/internal/store/store.go:57 +0x1d"
        ));
        assert!(is_frame_location(
            "thread 'main' panicked at crates/kv-core/src/store.rs:88:9:"
        ));
        assert!(!is_frame_location("at the start of the main loop"));
        assert!(!is_frame_location("fix the File handling in main.py"));
    }

    #[test]
    fn js_go_and_rust_frames_are_found() {
        let js = "TypeError: x is undefined\n    at Cart.addItem (/home/dev/acme/packages/core/src/cart.ts:31:11)\n    at main (/home/dev/acme/src/index.ts:5:3)\n";
        assert_eq!(
            frames(js),
            [
                "/home/dev/acme/packages/core/src/cart.ts:31 Cart.addItem",
                "/home/dev/acme/src/index.ts:5 main"
            ]
        );
        let go = "panic: runtime error: invalid memory address\n\ngoroutine 1 [running]:\ngithub.com/acme/kvstore/internal/store.(*MemoryStore).Get(0x0, {0x1, 0x2})\n\t/home/dev/kvstore/internal/store/store.go:57 +0x1d\nmain.main()\n\t/home/dev/kvstore/cmd/kvstore/main.go:20 +0x25\n";
        assert_eq!(
            frames(go),
            [
                "/home/dev/kvstore/internal/store/store.go:57 store.(*MemoryStore).Get",
                "/home/dev/kvstore/cmd/kvstore/main.go:20 main.main"
            ]
        );
        let rust = "thread 'main' panicked at crates/kv-core/src/store.rs:88:9:\nkey not found\n";
        assert_eq!(frames(rust), ["crates/kv-core/src/store.rs:88 "]);
        assert_eq!(frames("see src/app.py:10 for details"), ["src/app.py:10 "]);
        assert!(frames("version 1.2:3 of x").is_empty());
    }

    #[test]
    fn rust_backtrace_frames_without_locations_name_their_functions() {
        // A release build's backtrace: the panic's location, then functions only, the
        // standard library's and the runtime's left out.
        let short = "thread 'main' panicked at src/util/min_max.rs:5:35:\nboom\nstack backtrace:\n   0: rust_begin_unwind\n   1: core::panicking::panic_fmt\n   2: core::option::unwrap_failed\n   3: app::util::min_max::max\n   4: app::benchmark::Benchmark::run::{{closure}}\n   5: <app::exec::Shell as app::exec::Executor>::run\n   6: app::main\n   7: std::rt::lang_start_internal\n";
        assert_eq!(
            frames(short),
            [
                "src/util/min_max.rs:5 ",
                ":0 app::util::min_max::max",
                ":0 app::benchmark::Benchmark::run",
                ":0 app::exec::Shell::run",
                ":0 app::main",
            ]
        );
        // `RUST_BACKTRACE=full`: addresses and symbol hashes.
        let full = "stack backtrace:\n   0:     0x55d5c1a2b3c4 - app::store::Store<K>::get::h0123456789abcdef\n";
        assert_eq!(frames(full), [":0 app::store::Store::get"]);
        // With debug information a location follows, and the frame is located there.
        let located =
            "stack backtrace:\n   3: app::util::max\n             at ./src/util.rs:5:35\n";
        assert_eq!(frames(located), ["./src/util.rs:5 app::util::max"]);
        // Outside a Rust trace a numbered line is a list's.
        assert!(frames("Steps:\n1: app::run\n").is_empty());
        assert!(is_frame_location("   3: app::util::min_max::max"));
        assert_eq!(rust_backtrace_symbol("2: rust_begin_unwind"), None);
    }
}
