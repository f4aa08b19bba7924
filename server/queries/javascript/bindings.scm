; JavaScript and TypeScript bindings: names set to a new instance, so that `x.method()`
; resolves. Vocabulary: see ../README.md. Compiled for the JavaScript, TypeScript and TSX
; grammars; annotated types are in typescript/bindings.scm.

; `const client = new Client(url)`, `new api.Client()`.
(variable_declarator
  name: (identifier) @name
  value: (new_expression
    constructor: [
      (identifier) @type
      (member_expression property: (property_identifier) @type)
    ])) @binding.local

; `this.pool = new Pool()` in a class.
(assignment_expression
  left: (member_expression
    object: (this)
    property: (property_identifier) @name)
  right: (new_expression
    constructor: [
      (identifier) @type
      (member_expression property: (property_identifier) @type)
    ])) @binding.member

; Variables set to what a function returns: `const store = createStore()`.
(variable_declarator
  name: (identifier) @name
  value: (call_expression
    function: [
      (identifier) @call
      (member_expression property: (property_identifier) @call)
    ])) @binding.local
