; TypeScript bindings: annotated parameters, variables and class fields, so that
; `x.method()` resolves. Vocabulary: see ../README.md. Compiled for TypeScript and TSX.
; The extractor reduces the annotation to a bare name (`ns.Pool<T>`, `Pool | null` ->
; `Pool`); types that stand for any value, and arrays, type nothing.

; Utility types whose values have their argument's members (`Readonly<Pool>`,
; `Partial<Options>`): the argument is the type. These come first, as the patterns below
; would bind the wrapper's name.
(required_parameter
  (accessibility_modifier)
  pattern: (identifier) @name
  type: (type_annotation
    (generic_type
      name: (type_identifier) @_wrapper
      type_arguments: (type_arguments . (_) @type)))
  (#any-of? @_wrapper "Readonly" "Partial" "Required" "NonNullable")) @binding.member
([
  (required_parameter
    pattern: (identifier) @name
    type: (type_annotation
      (generic_type
        name: (type_identifier) @_wrapper
        type_arguments: (type_arguments . (_) @type))))
  (optional_parameter
    pattern: (identifier) @name
    type: (type_annotation
      (generic_type
        name: (type_identifier) @_wrapper
        type_arguments: (type_arguments . (_) @type))))
  (variable_declarator
    name: (identifier) @name
    type: (type_annotation
      (generic_type
        name: (type_identifier) @_wrapper
        type_arguments: (type_arguments . (_) @type))))
 ] @binding.local
  (#any-of? @_wrapper "Readonly" "Partial" "Required" "NonNullable"))
([
  (public_field_definition
    name: (property_identifier) @name
    type: (type_annotation
      (generic_type
        name: (type_identifier) @_wrapper
        type_arguments: (type_arguments . (_) @type))))
  (method_definition
    "get"
    name: (property_identifier) @name
    return_type: (type_annotation
      (generic_type
        name: (type_identifier) @_wrapper
        type_arguments: (type_arguments . (_) @type))))
 ] @binding.member
  (#any-of? @_wrapper "Readonly" "Partial" "Required" "NonNullable"))
([
  (function_declaration
    return_type: (type_annotation
      (generic_type
        name: (type_identifier) @_wrapper
        type_arguments: (type_arguments . (_) @type)))) @definition.function
  (method_definition
    return_type: (type_annotation
      (generic_type
        name: (type_identifier) @_wrapper
        type_arguments: (type_arguments . (_) @type)))) @definition.method
 ]
  (#any-of? @_wrapper "Readonly" "Partial" "Required" "NonNullable"))

; A constructor parameter with an accessibility modifier is also a field:
; `constructor(private readonly pool: Pool)`.
(required_parameter
  (accessibility_modifier)
  pattern: (identifier) @name
  type: (type_annotation (_) @type)
  (#not-any-of? @type "any" "unknown" "object" "Object")
  (#not-match? @type "\\[\\]$")) @binding.member
([
  (required_parameter pattern: (identifier) @name type: (type_annotation (_) @type))
  (optional_parameter pattern: (identifier) @name type: (type_annotation (_) @type))
  (variable_declarator name: (identifier) @name type: (type_annotation (_) @type))
 ] @binding.local
  (#not-any-of? @type "any" "unknown" "object" "Object")
  (#not-match? @type "\\[\\]$"))

; Class fields: `private pool: Pool`, `pool = new Pool()`.
(public_field_definition
  name: (property_identifier) @name
  type: (type_annotation (_) @type)
  (#not-any-of? @type "any" "unknown" "object" "Object")
  (#not-match? @type "\\[\\]$")) @binding.member
(public_field_definition
  name: (property_identifier) @name
  value: (new_expression
    constructor: [
      (identifier) @type
      (member_expression property: (property_identifier) @type)
    ])) @binding.member

; Getters: `x.pool` holds what `get pool(): Pool` returns, as a field of that type would.
(method_definition
  "get"
  name: (property_identifier) @name
  return_type: (type_annotation (_) @type)
  (#not-any-of? @type "any" "unknown" "object" "Object")
  (#not-match? @type "\\[\\]$")) @binding.member

; What functions and methods return (`): Store`), for the bindings in
; javascript/bindings.scm.
([
  (function_declaration return_type: (type_annotation (_) @type)) @definition.function
  (method_definition return_type: (type_annotation (_) @type)) @definition.method
 ]
  (#not-any-of? @type "any" "unknown" "object" "Object" "void")
  (#not-match? @type "\\[\\]$"))
