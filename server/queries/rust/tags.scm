; Rust definitions and references. Vocabulary: see ../README.md.
; Any visibility (`pub`, `pub(crate)`, `pub(super)`) marks a definition exported: it can be
; used (and imported) outside its module. Doc comments and attributes are found by position.
; Functions in an `impl` or a trait become methods (the extractor does this by nesting).

(function_item
  (visibility_modifier)? @exported
  name: (identifier) @name
  body: (block) @body) @definition.function
(function_signature_item
  (visibility_modifier)? @exported
  name: (identifier) @name) @definition.function @signature

; Types. A tuple struct has no body node (its fields are its first line).
(struct_item
  (visibility_modifier)? @exported
  name: (type_identifier) @name
  body: (field_declaration_list)? @body) @definition.struct
(union_item
  (visibility_modifier)? @exported
  name: (type_identifier) @name
  body: (field_declaration_list) @body) @definition.struct
(enum_item
  (visibility_modifier)? @exported
  name: (type_identifier) @name
  body: (enum_variant_list) @body) @definition.enum
(trait_item
  (visibility_modifier)? @exported
  name: (type_identifier) @name
  body: (declaration_list) @body) @definition.trait
(type_item
  (visibility_modifier)? @exported
  name: (type_identifier) @name) @definition.type
(associated_type
  name: (type_identifier) @name) @definition.type

; Struct and union fields. Enum variants are fields of their enum (they are reached through
; it, `E::A`, and are not types); the fields of struct-like variants are not definitions.
(struct_item
  body: (field_declaration_list
    (field_declaration
      (visibility_modifier)? @exported
      name: (field_identifier) @name) @definition.field))
(union_item
  body: (field_declaration_list
    (field_declaration
      (visibility_modifier)? @exported
      name: (field_identifier) @name) @definition.field))
(enum_variant
  name: (identifier) @name) @definition.field

; Enum variants and trait items are as visible as their enum or trait.
(enum_item
  (visibility_modifier)
  body: (enum_variant_list
    (enum_variant) @definition.field @exported))
(trait_item
  (visibility_modifier)
  body: (declaration_list
    [
      (function_item)
      (function_signature_item)
    ] @definition.function @exported))
(trait_item
  (visibility_modifier)
  body: (declaration_list
    (const_item) @definition.constant @exported))
(trait_item
  (visibility_modifier)
  body: (declaration_list
    (associated_type) @definition.type @exported))

; `impl` blocks are named by the implementing type: `Foo` for `impl<T> Display for Foo<T>`,
; `str` for `impl T for &'static str`.
; Other self types (`[T]`, `dyn Trait`) keep their text (the fallback comes last and
; yields to the specific pattern).
(impl_item
  type: [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
    (scoped_type_identifier name: (type_identifier) @name)
    (generic_type type: (scoped_type_identifier name: (type_identifier) @name))
    (reference_type type: (type_identifier) @name)
    (reference_type type: (generic_type type: (type_identifier) @name))
    ; `impl IntoResponse for &'static str`: the methods of `"OK"`.
    (primitive_type) @name
    (reference_type type: (primitive_type) @name)
  ]
  body: (declaration_list) @body) @definition.impl
(impl_item
  type: (_) @name
  body: (declaration_list) @body) @definition.impl
; The trait an impl implements is a base of its type: its provided methods are the type's.
(impl_item
  trait: (_) @base) @definition.impl

(const_item
  (visibility_modifier)? @exported
  name: (identifier) @name) @definition.constant
(static_item
  (visibility_modifier)? @exported
  name: (identifier) @name) @definition.constant

; Modules: `mod foo;` and inline `mod foo { ... }` (a module file is not an import).
(mod_item
  (visibility_modifier)? @exported
  name: (identifier) @name
  body: (declaration_list)? @body) @definition.module

(macro_definition
  name: (identifier) @name) @definition.macro
; `#[macro_export]` makes a `macro_rules!` public.
((attribute_item
  (attribute . (identifier) @_macro_export))
  .
  (macro_definition) @definition.macro @exported
  (#eq? @_macro_export "macro_export"))

; Tests: functions with a test attribute directly above (possibly followed by one more
; attribute such as `#[should_panic]`), and `#[cfg(test)]` modules and functions, whose
; members inherit the flag.
((attribute_item
  (attribute
    .
    [
      (identifier) @_test_attr
      (scoped_identifier name: (identifier) @_test_attr)
    ])) @test.always
  .
  (function_item) @definition.function
  (#any-of? @_test_attr "test" "rstest" "test_case" "quickcheck" "bench"))
((attribute_item
  (attribute
    .
    [
      (identifier) @_test_attr
      (scoped_identifier name: (identifier) @_test_attr)
    ])) @test.always
  .
  (attribute_item)
  .
  (function_item) @definition.function
  (#any-of? @_test_attr "test" "rstest" "test_case" "quickcheck" "bench"))
((attribute_item
  (attribute
    .
    (identifier) @_cfg
    arguments: (token_tree . (identifier) @_test .))) @test.always
  .
  (mod_item) @definition.module
  (#eq? @_cfg "cfg")
  (#eq? @_test "test"))
((attribute_item
  (attribute
    .
    (identifier) @_cfg
    arguments: (token_tree . (identifier) @_test .))) @test.always
  .
  (function_item) @definition.function
  (#eq? @_cfg "cfg")
  (#eq? @_test "test"))

; References: calls (plain, `Type::f()` / `module::f()` with the path as receiver, method
; calls with the receiver expression), macro invocations, paths, fields and types.
(call_expression
  function: (identifier) @name) @reference.call
(call_expression
  function: (scoped_identifier
    path: (_) @receiver
    name: (identifier) @name)) @reference.call
(call_expression
  function: (field_expression
    value: (_) @receiver
    field: (field_identifier) @name)) @reference.call
(call_expression
  function: (generic_function
    function: [
      (identifier) @name
      (scoped_identifier path: (_) @receiver name: (identifier) @name)
      (field_expression value: (_) @receiver field: (field_identifier) @name)
    ])) @reference.call
(macro_invocation
  macro: (identifier) @name) @reference.call
(macro_invocation
  macro: (scoped_identifier
    path: (_) @receiver
    name: (identifier) @name)) @reference.call
(scoped_identifier
  path: (_) @receiver
  name: (identifier) @name) @reference.path
(scoped_type_identifier
  path: (_) @receiver
  name: (type_identifier) @name) @reference.type
(field_expression
  value: (_) @receiver
  field: (field_identifier) @name) @reference.member

; A literal's members are its builtin type's (`"OK".into_response()`, `'x'.is_alphabetic()`),
; or of the type an unsuffixed number has by default: the type a receiver is given. Byte
; and C strings (`b".."`, `c".."`) are not `str`.
(field_expression
  value: [(string_literal) (raw_string_literal)] @receiver
  field: (field_identifier) @name
  (#not-match? @receiver "^[bc]")
  (#set! receiver.type "str")) @reference.member
(field_expression
  value: (char_literal) @receiver
  field: (field_identifier) @name
  (#not-match? @receiver "^b")
  (#set! receiver.type "char")) @reference.member
(field_expression
  value: (array_expression) @receiver
  field: (field_identifier) @name
  (#set! receiver.type "array")) @reference.member
(field_expression
  value: (integer_literal) @receiver
  field: (field_identifier) @name
  (#set! receiver.type "i32")) @reference.member
(field_expression
  value: (float_literal) @receiver
  field: (field_identifier) @name
  (#set! receiver.type "f64")) @reference.member
; A macro's arguments are tokens (`assert!(!ent.path_is_symlink())`): a name after a `.` is
; a member of the name before it, and a call when parentheses follow.
(token_tree
  [(identifier) (self)] @receiver
  .
  "."
  .
  (identifier) @name
  .
  (token_tree . "(")) @reference.call
(token_tree
  [(identifier) (self)] @receiver
  .
  "."
  .
  (identifier) @name) @reference.member
(type_identifier) @reference.type
(identifier) @reference.usage
