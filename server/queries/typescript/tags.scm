; TypeScript additions, compiled after ../javascript/{tags,imports}.scm for the TypeScript and
; TSX grammars. Vocabulary: see ../README.md.

; Types.
(interface_declaration
  name: (type_identifier) @name
  body: (interface_body) @body) @definition.interface
(type_alias_declaration
  name: (type_identifier) @name
  value: (object_type)? @body) @definition.type
(enum_declaration
  name: (identifier) @name
  body: (enum_body) @body) @definition.enum
(abstract_class_declaration
  name: (type_identifier) @name
  body: (class_body) @body) @definition.class

; What a class or an interface extends: `class Cart extends Base<T>`,
; `interface Shape extends Base, Named`.
(class_declaration
  (class_heritage
    (extends_clause value: [(identifier) (member_expression)] @base))) @definition.class
(abstract_class_declaration
  (class_heritage
    (extends_clause value: [(identifier) (member_expression)] @base))) @definition.class
(interface_declaration
  (extends_type_clause
    type: [(type_identifier) (nested_type_identifier) (generic_type)] @base)) @definition.interface
; What a class implements: `class Square implements Polygon, Named<T>`.
(class_declaration
  (class_heritage
    (implements_clause [(type_identifier) (nested_type_identifier) (generic_type)] @base))) @definition.class
(abstract_class_declaration
  (class_heritage
    (implements_clause [(type_identifier) (nested_type_identifier) (generic_type)] @base))) @definition.class

; Enum members are fields of their enum.
(enum_body
  name: (property_identifier) @name @definition.field)
(enum_body
  (enum_assignment
    name: (property_identifier) @name) @definition.field)

; Members of interfaces and of object type aliases (`type P = { a: string }`), also of the
; object types an alias intersects (`type P = Base & { a: string }`); and one level down, the
; members of a member's own object type (`persist: { rehydrate(): void }`), which belong to
; the interface or alias as its other members do.
(interface_body
  (property_signature
    name: (_) @name) @definition.field)
(interface_body
  (method_signature
    name: (_) @name) @definition.method @signature)
(interface_body
  (property_signature
    type: (type_annotation
      (object_type
        [
          (property_signature name: (_) @name) @definition.field
          (method_signature name: (_) @name) @definition.method @signature
        ]))))
(type_alias_declaration
  value: [
    (object_type
      [
        (property_signature name: (_) @name) @definition.field
        (method_signature name: (_) @name) @definition.method @signature
      ])
    (intersection_type
      (object_type
        [
          (property_signature name: (_) @name) @definition.field
          (method_signature name: (_) @name) @definition.method @signature
        ]))
    (intersection_type
      (intersection_type
        (object_type
          [
            (property_signature name: (_) @name) @definition.field
            (method_signature name: (_) @name) @definition.method @signature
          ])))
  ])
(type_alias_declaration
  value: [
    (object_type
      (property_signature
        type: (type_annotation
          (object_type
            [
              (property_signature name: (_) @name) @definition.field
              (method_signature name: (_) @name) @definition.method @signature
            ]))))
    (intersection_type
      (object_type
        (property_signature
          type: (type_annotation
            (object_type
              [
                (property_signature name: (_) @name) @definition.field
                (method_signature name: (_) @name) @definition.method @signature
              ])))))
  ])

; Class members: fields (a field holding a function is a method), overload signatures,
; abstract methods.
(class_body
  (public_field_definition
    name: (_) @name
    value: [
      (arrow_function body: (_) @body)
      (function_expression body: (_) @body)
    ]) @definition.method)
(class_body
  (public_field_definition
    name: (_) @name) @definition.field)
(class_body
  (method_signature
    name: (_) @name) @definition.method @signature)
(class_body
  (abstract_method_signature
    name: (_) @name) @definition.method @signature)

; `declare function f(): T;` and overload signatures.
(function_signature
  name: (identifier) @name) @definition.function @signature

; Namespaces and modules: `namespace A.B {}`, `module M {}`, `declare module 'm' {}`.
(internal_module
  name: (_) @name
  body: (statement_block) @body) @definition.module
(module
  name: [
    (identifier) @name
    (nested_identifier) @name
    (string (string_fragment) @name)
  ]
  body: (statement_block)? @body) @definition.module

; Ambient variables: `declare const x: T;`, `declare let y: T;`.
(ambient_declaration
  (lexical_declaration
    kind: "const"
    (variable_declarator
      name: (identifier) @name) @definition.constant))
(ambient_declaration
  [
    (lexical_declaration
      kind: "let"
      (variable_declarator
        name: (identifier) @name) @definition.variable)
    (variable_declaration
      (variable_declarator
        name: (identifier) @name) @definition.variable)
  ])

; Type references.
(type_identifier) @reference.type
(nested_type_identifier
  module: (_) @receiver
  name: (type_identifier) @name) @reference.type

; `import fs = require('fs')` binds the module.
(import_statement
  (import_require_clause
    (identifier) @import.alias
    source: (string) @import.source)) @import @import.module
