//! Exact token counting with a real BPE (o200k_base by default, cl100k_base selectable),
//! loaded once per process.
//!
//! Invariant: counts are of the exact text given; the tables are loaded off the request
//! path by [`warm_up`].

use std::fmt;

/// The tokenizer whose counts bound the context.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Tokenizer {
    #[default]
    O200kBase,
    Cl100kBase,
}

impl Tokenizer {
    pub fn name(self) -> &'static str {
        match self {
            Tokenizer::O200kBase => "o200k_base",
            Tokenizer::Cl100kBase => "cl100k_base",
        }
    }

    pub fn from_name(name: &str) -> Option<Tokenizer> {
        match name {
            "o200k_base" => Some(Tokenizer::O200kBase),
            "cl100k_base" => Some(Tokenizer::Cl100kBase),
            _ => None,
        }
    }

    fn bpe(self) -> &'static tiktoken_rs::CoreBPE {
        match self {
            Tokenizer::O200kBase => tiktoken_rs::o200k_base_singleton(),
            Tokenizer::Cl100kBase => tiktoken_rs::cl100k_base_singleton(),
        }
    }

    /// The number of tokens of `text` (special-token text is counted as ordinary text).
    pub fn count(self, text: &str) -> u32 {
        self.bpe().count_ordinary(text) as u32
    }
}

impl fmt::Display for Tokenizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Loads the BPE tables (hundreds of milliseconds) so the first request does not pay.
pub fn warm_up(tokenizer: Tokenizer) {
    tokenizer.count("warm up");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_real_bpe_counts() {
        assert_eq!(Tokenizer::O200kBase.count(""), 0);
        assert_eq!(Tokenizer::O200kBase.count("hello world"), 2);
        // Code tokenizes denser than characters / 4 suggests.
        let code =
            "func (s *MemoryStore) Get(key string) ([]byte, error) {\n\treturn nil, nil\n}\n";
        let n_tokens = Tokenizer::Cl100kBase.count(code);
        assert!(n_tokens > code.len() as u32 / 4, "{n_tokens}");
    }
}
