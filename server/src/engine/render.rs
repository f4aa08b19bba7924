//! Rendering of the chosen items as XML-style tags, Markdown or JSON.
//!
//! Invariant: the same items give byte-identical text; code is reproduced verbatim
//! (attribute values are escaped, bodies are not, so code stays readable).

use super::expand::Fallback;
use super::items::Section;
use crate::languages::Language;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    #[default]
    Xml,
    Markdown,
    Json,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Xml => "xml",
            Format::Markdown => "markdown",
            Format::Json => "json",
        }
    }

    pub fn from_name(name: &str) -> Option<Format> {
        match name {
            "xml" => Some(Format::Xml),
            "markdown" | "md" => Some(Format::Markdown),
            "json" => Some(Format::Json),
            _ => None,
        }
    }
}

/// What the renderer needs of one item.
pub struct Block<'a> {
    pub section: Section,
    pub path: &'a str,
    pub lang: Option<Language>,
    /// 1-based inclusive lines.
    pub lines: (u32, u32),
    pub symbol: Option<&'a str>,
    pub kind: Option<&'a str>,
    pub fidelity: &'static str,
    pub of: Option<&'a str>,
    /// 1-based inclusive lines of the whole definition the block shows part of.
    pub part_of: Option<(u32, u32)>,
    pub body: &'a str,
}

fn escape_attr(value: &str) -> String {
    value
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
}

fn json_string(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for ch in value.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            ch if (ch as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", ch as u32)),
            ch => out.push(ch),
        }
    }
    out.push('"');
    out
}

fn fence_lang(lang: Option<Language>) -> &'static str {
    match lang {
        Some(Language::Python) => "python",
        Some(Language::JavaScript) => "javascript",
        Some(Language::TypeScript) => "typescript",
        Some(Language::Tsx) => "tsx",
        Some(Language::Go) => "go",
        Some(Language::Rust) => "rust",
        None => "",
    }
}

/// The text of one block, as it appears between its section's opening and closing lines.
pub fn block(format: Format, block: &Block<'_>) -> String {
    let lines = format!("{}-{}", block.lines.0, block.lines.1);
    match format {
        Format::Xml => {
            let tag = match block.section {
                Section::Definitions => "def",
                Section::Code => "code",
                Section::Callers => "caller",
                Section::Tests => "test",
                Section::Imports => "import",
            };
            let mut attrs = format!("path=\"{}\" lines=\"{lines}\"", escape_attr(block.path));
            if let Some(symbol) = block.symbol {
                attrs.push_str(&format!(" symbol=\"{}\"", escape_attr(symbol)));
            }
            if let Some(kind) = block.kind {
                attrs.push_str(&format!(" kind=\"{kind}\""));
            }
            if let Some(of) = block.of {
                attrs.push_str(&format!(" of=\"{}\"", escape_attr(of)));
            }
            if let Some((first, last)) = block.part_of {
                attrs.push_str(&format!(" part-of=\"{first}-{last}\""));
            }
            // A card's lines are those of the definition it sums up, not of its text.
            if block.fidelity != "full" {
                attrs.push_str(&format!(" fidelity=\"{}\"", block.fidelity));
            }
            format!("<{tag} {attrs}>\n{}</{tag}>\n", block.body)
        }
        Format::Markdown => {
            let title = match (block.symbol, block.kind) {
                (Some(symbol), Some(kind)) => format!("`{symbol}` ({kind}) "),
                _ => String::new(),
            };
            let of = block
                .of
                .map(|of| format!(", calls `{of}`"))
                .unwrap_or_default();
            let part = block
                .part_of
                .map(|(first, last)| format!(" (part of {first}-{last})"))
                .unwrap_or_default();
            let card = if block.fidelity == "full" {
                ""
            } else {
                " (card)"
            };
            format!(
                "### {title}{}:{lines}{part}{card}{of}\n```{}\n{}```\n",
                block.path,
                fence_lang(block.lang),
                block.body
            )
        }
        Format::Json => {
            let mut fields = vec![
                format!("\"section\":{}", json_string(block.section.name())),
                format!("\"path\":{}", json_string(block.path)),
                format!("\"lines\":[{},{}]", block.lines.0, block.lines.1),
            ];
            if let Some(symbol) = block.symbol {
                fields.push(format!("\"symbol\":{}", json_string(symbol)));
            }
            if let Some(kind) = block.kind {
                fields.push(format!("\"kind\":{}", json_string(kind)));
            }
            fields.push(format!("\"fidelity\":{}", json_string(block.fidelity)));
            if let Some((first, last)) = block.part_of {
                fields.push(format!("\"partOf\":[{first},{last}]"));
            }
            fields.push(format!("\"content\":{}", json_string(block.body)));
            format!("{{{}}}", fields.join(","))
        }
    }
}

/// Whether a section lists its blocks by file, as numbered entries under one heading per
/// file (see [`group_open`] and [`entry`]) instead of one element per block: the definitions'
/// cards, a line or two each, for which a block's wrapper would cost as much as its text.
/// JSON keeps one object per item.
pub fn groups(format: Format, section: Section) -> bool {
    format != Format::Json && section == Section::Definitions
}

/// The line that opens the entries of one file in a grouped section.
pub fn group_open(format: Format, path: &str, lang: Option<Language>) -> String {
    match format {
        Format::Xml => format!("<defs path=\"{}\">\n", escape_attr(path)),
        Format::Markdown => format!("### {path}\n```{}\n", fence_lang(lang)),
        Format::Json => String::new(),
    }
}

/// The line that closes the entries of one file in a grouped section.
pub fn group_close(format: Format) -> &'static str {
    match format {
        Format::Xml => "</defs>\n",
        Format::Markdown => "```\n",
        Format::Json => "",
    }
}

/// One entry of a grouped section: the body after the 1-based line it is labelled with,
/// all its lines indented two spaces per level of nesting. It begins with a digit or a
/// space after the previous part's newline, a boundary no BPE pre-token crosses (see
/// [`document_parts`]).
pub fn entry(line: u32, depth: usize, body: &str) -> String {
    let indent = "  ".repeat(depth);
    let mut text = format!("{indent}{line}: ");
    for (n, body_line) in body.split_inclusive('\n').enumerate() {
        if n > 0 {
            text.push_str(&indent);
        }
        text.push_str(body_line);
    }
    text
}

/// What the document's first part states besides the figures.
#[derive(Clone, Copy)]
pub struct Heading<'a> {
    pub intent: &'a str,
    pub limit: u32,
    /// Names the task writes as code that the workspace neither defines nor uses.
    pub unresolved: &'a [String],
    /// What the budget left out, when it left out anything relevant.
    pub left_out: Option<&'a LeftOut<'a>>,
    /// Set when nothing matched the task: the answer says what it shows instead.
    pub fallback: Option<Fallback>,
    /// The uses of targets the task asks about that the answer does not show.
    pub uses_left: &'a [UsesLeft],
}

/// The uses of a target (see `expand::CallSites`) that the answer does not show: how many,
/// and as many of them as fit (`caller (path:line)`, the line of the use), so that a usage
/// question or a rename gets every place even when their code does not come.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsesLeft {
    pub of: String,
    pub items: usize,
    pub names: Vec<String>,
}

/// The note of an answer that the safety net made: nothing in it was matched by the task.
fn fallback_note(fallback: Fallback) -> &'static str {
    match fallback {
        Fallback::BestFiles => {
            "Nothing matched the task closely: these are the top-level definitions of the files its words ranked best."
        }
        Fallback::NearestRoot => {
            "Nothing in the workspace matched the task: these are the top-level definitions of the files nearest the root."
        }
    }
}

/// The note of the relevant items the budget left out: how many, and the best of them
/// (`name (path:line)`), so that a reader knows the answer is partial and what to ask for.
pub struct LeftOut<'a> {
    pub items: usize,
    pub names: &'a [String],
}

/// The first part of the document, which states the budget figures, and the names the task
/// writes that the workspace does not define.
pub fn header(format: Format, heading: Heading<'_>, used: u32) -> String {
    let Heading {
        intent,
        limit,
        unresolved,
        left_out,
        fallback,
        uses_left,
    } = heading;
    match format {
        Format::Xml => {
            let mut text =
                format!("<context intent=\"{intent}\" budget=\"{limit}\" used=\"{used}\">\n");
            if let Some(fallback) = fallback {
                text.push_str(&format!("<note>{}</note>\n", fallback_note(fallback)));
            }
            if !unresolved.is_empty() {
                text.push_str(&format!(
                    "<unresolved>{}</unresolved>\n",
                    escape_attr(&unresolved.join(", "))
                ));
            }
            if let Some(LeftOut { items, names }) = left_out {
                text.push_str(&format!(
                    "<omitted reason=\"budget\" items=\"{items}\">{}</omitted>\n",
                    escape_attr(&names.join(", "))
                ));
            }
            for UsesLeft { of, items, names } in uses_left {
                text.push_str(&format!(
                    "<omitted reason=\"uses\" of=\"{}\" items=\"{items}\">{}</omitted>\n",
                    escape_attr(of),
                    escape_attr(&names.join(", "))
                ));
            }
            text
        }
        Format::Markdown => {
            let mut text =
                format!("# Context\nintent: {intent}, budget: {limit} tokens, used: {used}\n");
            if let Some(fallback) = fallback {
                text.push_str(&format!("note: {}\n", fallback_note(fallback)));
            }
            if !unresolved.is_empty() {
                let names: Vec<String> =
                    unresolved.iter().map(|name| format!("`{name}`")).collect();
                text.push_str(&format!(
                    "not defined in the workspace: {}\n",
                    names.join(", ")
                ));
            }
            if let Some(LeftOut { items, names }) = left_out {
                let list = markdown_list(names);
                text.push_str(&format!("left out for the budget: {items} items{list}\n"));
            }
            for UsesLeft { of, items, names } in uses_left {
                let list = markdown_list(names);
                text.push_str(&format!("uses of `{of}` not shown: {items}{list}\n"));
            }
            text
        }
        Format::Json => String::new(),
    }
}

/// Names as a Markdown list after a figure (`: `a`, `b``), empty for none.
fn markdown_list(names: &[String]) -> String {
    if names.is_empty() {
        return String::new();
    }
    let named: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    format!(": {}", named.join(", "))
}

/// The lines that open and close a section (empty when the section has none).
pub fn section_open(format: Format, section: Section) -> String {
    match format {
        // Code blocks are `<code path=... lines=...>` elements of their own.
        Format::Xml if section == Section::Code => String::new(),
        Format::Xml => format!("<{}>\n", section.name()),
        Format::Markdown => {
            let title = match section {
                Section::Definitions => "Definitions",
                Section::Code => "Code",
                Section::Callers => "Callers",
                Section::Tests => "Tests",
                Section::Imports => "Imports",
            };
            format!("## {title}\n")
        }
        Format::Json => String::new(),
    }
}

pub fn section_close(format: Format, section: Section) -> String {
    match format {
        Format::Xml if section != Section::Code => format!("</{}>\n", section.name()),
        _ => String::new(),
    }
}

/// The last part of the document.
pub fn footer(format: Format) -> &'static str {
    match format {
        Format::Xml => "</context>\n",
        Format::Markdown | Format::Json => "",
    }
}

/// The parts of the whole document, in order: header, then for each section with blocks its
/// opening, blocks and closing, then the footer. In XML and Markdown every part ends with a
/// newline and the next begins with `<`, `#`, a backtick, a digit or a space (a grouped
/// section's entries and closing lines), a boundary no BPE pre-token crosses in o200k_base
/// or cl100k_base, so the document's token count is the sum of its parts' (the tests check
/// it against the count of the whole text).
pub fn document_parts(
    format: Format,
    heading: Heading<'_>,
    used: u32,
    sections: &[(Section, Vec<String>)],
) -> Vec<String> {
    let mut parts = vec![header(format, heading, used)];
    for (section, blocks) in sections.iter().filter(|(_, blocks)| !blocks.is_empty()) {
        parts.push(section_open(format, *section));
        parts.extend(blocks.iter().cloned());
        parts.push(section_close(format, *section));
    }
    parts.push(footer(format).to_owned());
    parts
}

/// The whole context text from rendered blocks grouped by section (in section order).
pub fn document(
    format: Format,
    heading: Heading<'_>,
    used: u32,
    sections: &[(Section, Vec<String>)],
) -> String {
    if format == Format::Json {
        let all: Vec<&str> = sections
            .iter()
            .flat_map(|(_, blocks)| blocks.iter().map(String::as_str))
            .collect();
        return format!("[{}]\n", all.join(",\n"));
    }
    document_parts(format, heading, used, sections).concat()
}

/// The fixed overhead of a section's wrapper lines.
pub fn section_overhead(format: Format, section: Section) -> String {
    match format {
        Format::Json => ",\n".to_owned(),
        _ => section_open(format, section) + &section_close(format, section),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(part_of: Option<(u32, u32)>) -> Block<'static> {
        Block {
            section: Section::Code,
            path: "db/query.py",
            lang: Some(Language::Python),
            lines: (40, 69),
            symbol: Some("create"),
            kind: Some("function"),
            fidelity: "full",
            of: None,
            part_of,
            body: "    return objs\n",
        }
    }

    #[test]
    fn a_block_showing_part_of_a_definition_says_so_in_every_format() {
        for (format, marker) in [
            (Format::Xml, " part-of=\"1-75\">"),
            (Format::Markdown, "db/query.py:40-69 (part of 1-75)\n"),
            (Format::Json, "\"partOf\":[1,75]"),
        ] {
            assert!(block(format, &window(Some((1, 75)))).contains(marker));
            assert!(!block(format, &window(None)).contains("part"));
        }
    }

    #[test]
    fn a_card_outside_the_definitions_says_it_is_one_in_every_format() {
        let card = Block {
            fidelity: "compact",
            ..window(None)
        };
        for (format, marker) in [
            (Format::Xml, " fidelity=\"compact\">"),
            (Format::Markdown, "db/query.py:40-69 (card)\n"),
            (Format::Json, "\"fidelity\":\"compact\""),
        ] {
            assert!(block(format, &card).contains(marker));
        }
        assert!(!block(Format::Xml, &window(None)).contains("fidelity"));
        assert!(!block(Format::Markdown, &window(None)).contains("card"));
    }

    #[test]
    fn an_answer_the_safety_net_made_says_that_nothing_matched() {
        let heading = |fallback| Heading {
            intent: "bug_fix",
            limit: 8000,
            unresolved: &[],
            left_out: None,
            fallback,
            uses_left: &[],
        };
        for (format, marker) in [
            (Format::Xml, "<note>Nothing matched the task closely: "),
            (Format::Markdown, "note: Nothing matched the task closely: "),
        ] {
            assert!(header(format, heading(Some(Fallback::BestFiles)), 10).contains(marker));
            assert!(!header(format, heading(None), 10).contains("atched"));
        }
        assert!(
            header(Format::Xml, heading(Some(Fallback::NearestRoot)), 10)
                .contains("<note>Nothing in the workspace matched the task: ")
        );
    }
}
