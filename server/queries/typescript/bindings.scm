; TypeScript bindings: annotated parameters, variables and class fields, so that
; `x.method()` resolves. Vocabulary: see ../README.md. Compiled for TypeScript and TSX.

; `any`, `unknown` and `object` are predefined types, not type identifiers: they type
; nothing here. `Object` does not either.

; A constructor parameter with an accessibility modifier is also a field:
; `constructor(private readonly pool: Pool)`.
(required_parameter
  (accessibility_modifier)
  pattern: (identifier) @name
  type: (type_annotation
    [
      (type_identifier) @type
      (nested_type_identifier) @type
      (generic_type name: (_) @type)
    ])
  (#not-eq? @type "Object")) @binding.member
(required_parameter
  pattern: (identifier) @name
  type: (type_annotation
    [
      (type_identifier) @type
      (nested_type_identifier) @type
      (generic_type name: (_) @type)
    ])
  (#not-eq? @type "Object")) @binding.local
(optional_parameter
  pattern: (identifier) @name
  type: (type_annotation
    [
      (type_identifier) @type
      (nested_type_identifier) @type
      (generic_type name: (_) @type)
    ])
  (#not-eq? @type "Object")) @binding.local
(variable_declarator
  name: (identifier) @name
  type: (type_annotation
    [
      (type_identifier) @type
      (nested_type_identifier) @type
      (generic_type name: (_) @type)
    ])
  (#not-eq? @type "Object")) @binding.local

; Class fields: `private pool: Pool`, `pool = new Pool()`.
(public_field_definition
  name: (property_identifier) @name
  type: (type_annotation
    [
      (type_identifier) @type
      (nested_type_identifier) @type
      (generic_type name: (_) @type)
    ])
  (#not-eq? @type "Object")) @binding.member
(public_field_definition
  name: (property_identifier) @name
  value: (new_expression
    constructor: [
      (identifier) @type
      (member_expression property: (property_identifier) @type)
    ])) @binding.member

; What functions and methods return (`): Store`), for the bindings in
; javascript/bindings.scm.
(function_declaration
  return_type: (type_annotation
    [
      (type_identifier) @type
      (generic_type name: (_) @type)
    ])) @definition.function
(method_definition
  return_type: (type_annotation
    [
      (type_identifier) @type
      (generic_type name: (_) @type)
    ])) @definition.method
