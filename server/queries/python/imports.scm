; Python imports.

; import a.b / import a.b as c
(import_statement
  name: (dotted_name) @import.source) @import @import.module
(import_statement
  name: (aliased_import
    name: (dotted_name) @import.source
    alias: (identifier) @import.alias)) @import @import.module

; from x import a, b as c, *
(import_from_statement
  module_name: (_) @import.source
  name: (dotted_name) @import.name) @import
(import_from_statement
  module_name: (_) @import.source
  name: (aliased_import
    name: (dotted_name) @import.name
    alias: (identifier) @import.alias)) @import
(import_from_statement
  module_name: (_) @import.source
  (wildcard_import) @import.wildcard) @import
