; JavaScript imports and re-exports, shared by JavaScript, TypeScript and TSX.
; One import per statement and module specifier; `@import.source` is the string (unquoted by
; the extractor).

; Every `import ... from 'm'` and the side-effect `import 'm'` record their module.
(import_statement
  source: (string) @import.source) @import

; `import x from 'm'`: a default import is the module's export named `default`, bound
; locally under the written name: recorded as name `default` with alias `x`.
((import_statement
  (import_clause
    (identifier) @import.alias)
  source: (string) @import.source) @import
  (#set! import.name "default"))

; `import {a, b as c} from 'm'` (also `import {default as x}` and TypeScript's `import type`).
(import_statement
  (import_clause
    (named_imports
      (import_specifier
        name: (_) @import.name
        alias: (_)? @import.alias)))
  source: (string) @import.source) @import

; `import * as ns from 'm'` binds the module itself.
(import_statement
  (import_clause
    (namespace_import (identifier) @import.alias))
  source: (string) @import.source) @import @import.module

; Re-exports: `export {a, b as c} from 'm'`, `export * from 'm'`, `export * as ns from 'm'`.
; (`export {a, b}` without `from` exports local names and is not an import.)
(export_statement
  (export_clause
    (export_specifier
      name: (_) @import.name
      alias: (_)? @import.alias))
  source: (string) @import.source) @import @import.reexport
(export_statement
  "*" @import.wildcard
  source: (string) @import.source) @import @import.reexport
(export_statement
  (namespace_export (_) @import.alias)
  source: (string) @import.source) @import @import.reexport @import.module

; CommonJS: `const x = require('m')` binds the module; `const {a, b: c} = require('m')`
; imports names; a bare `require('m')` statement is a side-effect import.
; (The declaration is the import: the pattern's root names both declaration kinds, since a
; wildcard root would be tried on every node.)
(([
  (lexical_declaration
    (variable_declarator
      name: (identifier) @import.alias
      value: (call_expression
        function: (identifier) @_require
        arguments: (arguments . (string) @import.source .))))
  (variable_declaration
    (variable_declarator
      name: (identifier) @import.alias
      value: (call_expression
        function: (identifier) @_require
        arguments: (arguments . (string) @import.source .))))
  ] @import @import.module)
  (#eq? @_require "require"))
(([
  (lexical_declaration
    (variable_declarator
      name: (object_pattern
        [
          (shorthand_property_identifier_pattern) @import.name
          (pair_pattern
            key: (property_identifier) @import.name
            value: (identifier) @import.alias)
        ])
      value: (call_expression
        function: (identifier) @_require
        arguments: (arguments . (string) @import.source .))))
  (variable_declaration
    (variable_declarator
      name: (object_pattern
        [
          (shorthand_property_identifier_pattern) @import.name
          (pair_pattern
            key: (property_identifier) @import.name
            value: (identifier) @import.alias)
        ])
      value: (call_expression
        function: (identifier) @_require
        arguments: (arguments . (string) @import.source .))))
  ] @import)
  (#eq? @_require "require"))
((expression_statement
  (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string) @import.source .))) @import
  (#eq? @_require "require"))

; Dynamic `import('m')` records the module.
(call_expression
  function: (import)
  arguments: (arguments . (string) @import.source)) @import
