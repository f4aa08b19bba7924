//! The in-process LSP benchmark driver used by `codectx bench lsp` (filled in below).
