//! Documentation text: strips comment markers and docstring quotes, keeps the first sentence.
//!
//! Invariant: pure text functions; never panics on any input.

const MAX_DOC_CHARS: usize = 240;

/// The first sentence of a Python docstring literal (quotes and prefixes included).
pub(crate) fn docstring_summary(literal: &str) -> Option<String> {
    let body = literal.trim_start_matches(|ch: char| "rRbBuUfF".contains(ch));
    let body = ["\"\"\"", "'''", "\"", "'"]
        .iter()
        .find_map(|quote| {
            body.strip_prefix(quote)
                .map(|rest| rest.strip_suffix(quote).unwrap_or(rest))
        })
        .unwrap_or(body);
    first_sentence(body)
}

/// The first sentence of a run of comments (markers such as `///`, `//`, `#`, `/**`, `*`
/// are removed from each line).
pub(crate) fn comment_summary(comments: &[&str]) -> Option<String> {
    let mut text = String::new();
    for comment in comments {
        for line in comment.lines() {
            let line = line.trim();
            let line = line
                .trim_start_matches("/**")
                .trim_start_matches("/*!")
                .trim_start_matches("/*")
                .trim_end_matches("*/")
                .trim_start_matches("///")
                .trim_start_matches("//!")
                .trim_start_matches("//")
                .trim_start_matches('#')
                .trim_start_matches('*')
                .trim();
            // JSDoc tags end the summary.
            if line.starts_with('@') {
                return first_sentence(&text);
            }
            text.push_str(line);
            text.push('\n');
        }
    }
    first_sentence(&text)
}

/// The first sentence (or first paragraph, if no sentence ends) on one line.
pub(crate) fn first_sentence(text: &str) -> Option<String> {
    let text = text.trim();
    let paragraph = text.split("\n\n").next().unwrap_or(text);
    let paragraph = paragraph.split("\n\r\n").next().unwrap_or(paragraph).trim();
    let mut end = paragraph.len();
    let bytes = paragraph.as_bytes();
    for (idx, byte) in bytes.iter().enumerate() {
        if matches!(byte, b'.' | b'!' | b'?')
            && bytes
                .get(idx + 1)
                .is_none_or(|next| next.is_ascii_whitespace())
        {
            end = idx + 1;
            break;
        }
    }
    let sentence = super::one_line(&paragraph[..end], MAX_DOC_CHARS);
    (!sentence.is_empty()).then_some(sentence)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docstrings_keep_their_first_sentence() {
        assert_eq!(
            docstring_summary("\"\"\"Connect to the database. Retries on failure.\"\"\"")
                .as_deref(),
            Some("Connect to the database.")
        );
        assert_eq!(
            docstring_summary("r'''\n    Multi\n    line summary\n\n    Details.\n'''").as_deref(),
            Some("Multi line summary")
        );
        assert_eq!(docstring_summary("\"\"\"\"\"\"").as_deref(), None);
        assert_eq!(docstring_summary("'x").as_deref(), Some("x"));
    }

    #[test]
    fn comments_lose_their_markers() {
        assert_eq!(
            comment_summary(&["/// Builds the tree.", "/// Second line."]).as_deref(),
            Some("Builds the tree.")
        );
        assert_eq!(
            comment_summary(&["/**\n * Adds an item to the cart.\n * @param item the item\n */"])
                .as_deref(),
            Some("Adds an item to the cart.")
        );
        assert_eq!(
            comment_summary(&[
                "// NewMemoryStore returns an empty store",
                "// ready to use"
            ])
            .as_deref(),
            Some("NewMemoryStore returns an empty store ready to use")
        );
        assert_eq!(comment_summary(&["//"]).as_deref(), None);
        assert_eq!(
            first_sentence("Version 1.2 is out. Yes.").as_deref(),
            Some("Version 1.2 is out.")
        );
    }
}
