; Go imports: one per `import_spec`. An import binds the package (`@import.module`) under
; its alias or, without one, under its package name (the extractor uses the last path
; element). A dot import brings every exported name into scope; a blank import binds nothing.

(import_spec
  !name
  path: (_) @import.source) @import @import.module
(import_spec
  name: (package_identifier) @import.alias
  path: (_) @import.source) @import @import.module
(import_spec
  name: (dot)
  path: (_) @import.source) @import @import.wildcard
(import_spec
  name: (blank_identifier)
  path: (_) @import.source) @import
