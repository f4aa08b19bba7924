; Rust bindings: names whose type is written or constructed, so that `x.method()` resolves.
; Vocabulary: see ../README.md. The first pattern that types a name wins: smart pointers
; (which call through to what they hold) come before the general patterns.

; Parameters and annotated variables: `fn f(store: &mut Store)`, `let s: Box<Store> = ...`.
(parameter
  pattern: (identifier) @name
  type: [
    (generic_type
      type: (type_identifier) @_pointer
      type_arguments: (type_arguments . (_) @type))
    (reference_type
      type: (generic_type
        type: (type_identifier) @_pointer
        type_arguments: (type_arguments . (_) @type)))
  ]
  (#any-of? @_pointer "Box" "Rc" "Arc")) @binding.local
(let_declaration
  pattern: (identifier) @name
  type: (generic_type
    type: (type_identifier) @_pointer
    type_arguments: (type_arguments . (_) @type))
  (#any-of? @_pointer "Box" "Rc" "Arc")) @binding.local
; `Option<Store>` and `Result<Store, E>` are types of their own (a method called on them is not
; the repository's), holding a `Store` that `?`, `.unwrap()` and `.expect(..)` take out.
(parameter
  pattern: (identifier) @name
  type: [
    (generic_type
      type: (type_identifier) @type
      type_arguments: (type_arguments . (_) @type.held))
    (reference_type
      type: (generic_type
        type: (type_identifier) @type
        type_arguments: (type_arguments . (_) @type.held)))
  ]
  (#any-of? @type "Option" "Result")) @binding.local
(let_declaration
  pattern: (identifier) @name
  type: (generic_type
    type: (type_identifier) @type
    type_arguments: (type_arguments . (_) @type.held))
  (#any-of? @type "Option" "Result")) @binding.local
(parameter
  pattern: (identifier) @name
  type: (_) @type
  (#not-match? @type "\\bAny$")) @binding.local
(let_declaration
  pattern: (identifier) @name
  type: (_) @type
  (#not-match? @type "\\bAny$")) @binding.local

; Variables set to a constructed value: `let w = LineWrapper::new(80)`, `Store { .. }`.
(let_declaration
  pattern: (identifier) @name
  value: (call_expression
    function: (scoped_identifier
      path: (_) @type))
  (#match? @type "(^|::)[A-Z][A-Za-z0-9_]*$")) @binding.local
(let_declaration
  pattern: (identifier) @name
  value: (struct_expression
    name: (_) @type)) @binding.local
(let_declaration
  pattern: (identifier) @name
  value: (reference_expression
    value: (struct_expression
      name: (_) @type))) @binding.local

; Struct fields, for `self.field.method()`.
(field_declaration
  name: (field_identifier) @name
  type: (generic_type
    type: (type_identifier) @_pointer
    type_arguments: (type_arguments . (_) @type))
  (#any-of? @_pointer "Box" "Rc" "Arc")) @binding.member
(field_declaration
  name: (field_identifier) @name
  type: (generic_type
    type: (type_identifier) @type
    type_arguments: (type_arguments . (_) @type.held))
  (#any-of? @type "Option" "Result")) @binding.member
(field_declaration
  name: (field_identifier) @name
  type: (_) @type) @binding.member

; Variables set to what a function returns: `let store = open(path)?`, `let s = make()`.
(let_declaration
  pattern: (identifier) @name
  value: [
    (call_expression function: (identifier) @call)
    (try_expression (call_expression function: (identifier) @call))
    (try_expression
      (call_expression
        function: (scoped_identifier
          path: (_) @_path
          name: (identifier) @call)))
  ]) @binding.local

; What functions return, for the bindings above: the value inside a `Result`, an `Option`
; or a `Box` (a binding through `?` holds it; a method called on a `Result` is not the
; repository's), else the type.
(function_item
  return_type: (generic_type
    type: [
      (type_identifier) @_wrapper
      (scoped_type_identifier name: (type_identifier) @_wrapper)
    ]
    type_arguments: (type_arguments . (_) @type))
  (#any-of? @_wrapper "Result" "Option" "Box")) @definition.function
(function_item
  return_type: (_) @type) @definition.function
