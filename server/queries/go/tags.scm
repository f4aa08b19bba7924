; Go definitions and references. Vocabulary: see ../README.md.
; `type`, `const` and `var` declarations are wrappers (see registry.rs): an ungrouped
; declaration's range, signature and doc comment include its keyword line.
; Names starting with an upper-case letter are exported (registry.rs), so nothing is marked.

; Functions; tests (`TestXxx`, `BenchmarkXxx`, `ExampleXxx`, `FuzzXxx`) count as tests
; only in `_test.go` files.
(function_declaration
  name: (identifier) @name
  body: (block)? @body) @definition.function
((function_declaration
  name: (identifier) @test) @definition.function
  (#match? @test "^(Test|Benchmark|Example|Fuzz)([^a-z]|$)"))

; Methods are declared outside their type: `@container` is the receiver type (`*` and type
; arguments are stripped by the extractor).
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: (_) @container))
  name: (field_identifier) @name
  body: (block)? @body) @definition.method

; Types by what they define.
(type_spec
  name: (type_identifier) @name
  type: (struct_type (field_declaration_list) @body)) @definition.struct
; Embedded structs: a field without a name, whose type's methods and fields the struct has.
(type_spec
  type: (struct_type
    (field_declaration_list
      (field_declaration
        !name
        type: [(type_identifier) (pointer_type) (qualified_type) (generic_type)] @base)))) @definition.struct
; (An interface has no body node: its signature is its first line, `type Getter interface`.)
(type_spec
  name: (type_identifier) @name
  type: (interface_type)) @definition.interface
; Embedded interfaces: a type element of one type, whose methods the interface lists too (not
; a constraint's union or `~T`).
(type_spec
  type: (interface_type
    (type_elem
      .
      [(type_identifier) (qualified_type) (generic_type)] @base
      .))) @definition.interface
(type_spec
  name: (type_identifier) @name) @definition.type
(type_alias
  name: (type_identifier) @name) @definition.type

; Struct fields and interface methods. `X, Y int` defines two fields: the first is the
; whole declaration, the others their name only. Embedded fields are type references.
; Only fields of named struct types and of struct-typed fields within them: the fields of
; an anonymous struct in a function body (a test table's `name`, `want`) define nothing
; another file can use.
(type_spec
  type: (struct_type
    (field_declaration_list
      (field_declaration
        .
        name: (field_identifier) @name) @definition.field)))
(type_spec
  type: (struct_type
    (field_declaration_list
      (field_declaration
        name: (field_identifier)
        name: (field_identifier) @name @definition.field))))
(field_declaration
  type: (struct_type
    (field_declaration_list
      (field_declaration
        .
        name: (field_identifier) @name) @definition.field)))
(field_declaration
  type: (struct_type
    (field_declaration_list
      (field_declaration
        name: (field_identifier)
        name: (field_identifier) @name @definition.field))))
(interface_type
  (method_elem
    name: (field_identifier) @name) @definition.method @signature)

; Package-level constants and variables (not locals), grouped or not; as for fields,
; `var a, b = 1, 2` defines `a` through the spec and `b` through its name.
(source_file
  (const_declaration
    (const_spec
      .
      name: (identifier) @name) @definition.constant))
(source_file
  (const_declaration
    (const_spec
      name: (identifier)
      name: (identifier) @name @definition.constant)))
(source_file
  (var_declaration
    [
      (var_spec . name: (identifier) @name) @definition.variable
      (var_spec_list (var_spec . name: (identifier) @name) @definition.variable)
    ]))
(source_file
  (var_declaration
    [
      (var_spec
        name: (identifier)
        name: (identifier) @name @definition.variable)
      (var_spec_list
        (var_spec
          name: (identifier)
          name: (identifier) @name @definition.variable))
    ]))

; References: calls, `pkg.Func()` and `x.Method()` with their receiver, selectors, types.
(call_expression
  function: (identifier) @name) @reference.call
(call_expression
  function: (selector_expression
    operand: (_) @receiver
    field: (field_identifier) @name)) @reference.call
(selector_expression
  operand: (_) @receiver
  field: (field_identifier) @name) @reference.member
(qualified_type
  package: (package_identifier) @receiver
  name: (type_identifier) @name) @reference.type
(type_identifier) @reference.type
(identifier) @reference.usage
