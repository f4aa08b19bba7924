; Go bindings: parameters (receivers included), typed variables, composite literals and
; struct fields, so that `x.Method()` resolves. Vocabulary: see ../README.md.

; `func (s *Server) Serve(l net.Listener)`: the extractor strips `*` and the package.
(parameter_declaration
  name: (identifier) @name
  type: (_) @type
  (#not-eq? @type "any")) @binding.local
(var_spec
  name: (identifier) @name
  type: (_) @type
  (#not-eq? @type "any")) @binding.local

; `s := Server{}`, `s := &Server{}`, `s := pkg.Server{}`.
(short_var_declaration
  left: (expression_list . (identifier) @name)
  right: (expression_list .
    [
      (composite_literal type: (_) @type)
      (unary_expression
        operator: "&"
        operand: (composite_literal type: (_) @type))
    ])) @binding.local

; A type assertion says the type: `c, ok := v.(*Context)`, `c = pool.Get().(*Context)`,
; `var c = v.(*Context)`.
(short_var_declaration
  left: (expression_list . (identifier) @name)
  right: (expression_list . (type_assertion_expression type: (_) @type))) @binding.local
(assignment_statement
  left: (expression_list . (identifier) @name)
  right: (expression_list . (type_assertion_expression type: (_) @type))) @binding.local
(var_spec
  name: (identifier) @name
  value: (expression_list . (type_assertion_expression type: (_) @type))) @binding.local

; Struct fields, for `s.field.Method()`.
(field_declaration
  name: (field_identifier) @name
  type: (_) @type
  (#not-eq? @type "any")) @binding.member

; Variables set to what a function returns: `s := NewServer()`, `s, err := srv.New()`.
(short_var_declaration
  left: (expression_list . (identifier) @name)
  right: (expression_list .
    (call_expression
      function: [
        (identifier) @call
        (selector_expression field: (field_identifier) @call)
      ]))) @binding.local

; What functions return (their first result), for the bindings above.
(function_declaration
  result: (parameter_list . (parameter_declaration type: (_) @type))) @definition.function
(function_declaration
  result: (_) @type) @definition.function
(method_declaration
  result: (parameter_list . (parameter_declaration type: (_) @type))) @definition.method
(method_declaration
  result: (_) @type) @definition.method
