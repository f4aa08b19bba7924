; Rust imports. A `use` tree is flattened by the extractor into one import per path
; (`use a::{b, c::d as e}` imports `b` from `a` and `d` as `e` from `a::c`).
; A `use` with any visibility re-exports what it imports.
(use_declaration
  (visibility_modifier)? @import.reexport
  argument: (_) @import.tree) @import

; `extern crate serde;` / `extern crate serde as s;` binds the crate.
(extern_crate_declaration
  name: (identifier) @import.source
  alias: (identifier)? @import.alias) @import @import.module
