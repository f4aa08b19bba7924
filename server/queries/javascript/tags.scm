; JavaScript definitions and references, shared by JavaScript, TypeScript and TSX.
; Only node types that exist in all three grammars may appear here.
; Vocabulary: see ../README.md.
; `export`, `const`/`let`/`var` and `declare` are wrappers (see registry.rs): they extend
; the definition's range and signature, carry its JSDoc and make it exported.
; When several patterns capture the same node, the first one decides its kind and name:
; specific patterns come before general ones.

; Functions (plain, async, generator).
(function_declaration
  name: (identifier) @name
  body: (statement_block) @body) @definition.function
(generator_function_declaration
  name: (identifier) @name
  body: (statement_block) @body) @definition.function

; Classes; methods and fields are found inside the class body.
(class_declaration
  name: (_) @name
  body: (class_body) @body) @definition.class
; What a class declaration extends. In JavaScript the heritage holds the expression itself
; (`class App extends Emitter`); in TypeScript it holds `extends` and `implements` clauses,
; which the predicate leaves to ../typescript/tags.scm.
((class_declaration
  (class_heritage (_) @base)) @definition.class
  (#not-match? @base "^(extends|implements)[^A-Za-z0-9_$]"))

(class_body
  (method_definition
    name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name
    body: (statement_block) @body) @definition.method)

; Class fields: JavaScript's `field_definition` is the only class member with a `property`
; field (TypeScript's `public_field_definition` is in ../typescript/tags.scm). A field
; holding a function (`onClick = () => {}`) is a method.
(class_body
  (_
    property: [(property_identifier) (private_property_identifier)] @name
    value: [
      (arrow_function body: (_) @body)
      (function_expression body: (_) @body)
    ]) @definition.method)
(class_body
  (_
    property: [(property_identifier) (private_property_identifier)] @name) @definition.field)

; A function value bound to a name is a function wherever it is declared: at the top of the
; program, exported, or inside a function (`const onError = async (error) => {}` in a
; function's body is a nested function, as a nested `function` declaration is). This
; pattern comes first. The function may stand in parentheses (got's `const paginateEach =
; (async function * (url) {})`); a query cannot follow nesting to any depth, so two levels
; are listed, more than code writes. A function called at once (`const g = (() => {})()`)
; is a call, not a function value.
(variable_declarator
  name: (identifier) @name
  value: [
    (arrow_function body: (_) @body)
    (function_expression body: (_) @body)
    (generator_function body: (_) @body)
    (parenthesized_expression
      [
        (arrow_function body: (_) @body)
        (function_expression body: (_) @body)
        (generator_function body: (_) @body)
      ])
    (parenthesized_expression
      (parenthesized_expression
        [
          (arrow_function body: (_) @body)
          (function_expression body: (_) @body)
          (generator_function body: (_) @body)
        ]))
  ]) @definition.function

; Module-level variables (not locals): at the top of the program or exported.
; A class value makes a class; these patterns come before the other values.
(program
  (_
    (variable_declarator
      name: (identifier) @name
      value: (class body: (class_body) @body)) @definition.class))
(export_statement
  declaration: (_
    (variable_declarator
      name: (identifier) @name
      value: (class body: (class_body) @body)) @definition.class))

; Other values: `const` makes a constant, `let` and `var` a variable.
; `const x = require('m')` is an import (imports.scm), not a definition.
((program
  (lexical_declaration
    kind: "const"
    (variable_declarator
      name: (identifier) @name
      value: (_)? @_value) @definition.constant))
  (#not-match? @_value "^require\\s*\\("))
((export_statement
  declaration: (lexical_declaration
    kind: "const"
    (variable_declarator
      name: (identifier) @name
      value: (_)? @_value) @definition.constant))
  (#not-match? @_value "^require\\s*\\("))
((program
  [
    (lexical_declaration
      kind: "let"
      (variable_declarator
        name: (identifier) @name
        value: (_)? @_value) @definition.variable)
    (variable_declaration
      (variable_declarator
        name: (identifier) @name
        value: (_)? @_value) @definition.variable)
  ])
  (#not-match? @_value "^require\\s*\\("))
(export_statement
  declaration: [
    (lexical_declaration
      kind: "let"
      (variable_declarator
        name: (identifier) @name) @definition.variable)
    (variable_declaration
      (variable_declarator
        name: (identifier) @name) @definition.variable)
  ])

; CommonJS exports: `exports.f = function () {}`, `module.exports.f = () => {}`.
;
; Chained assignments: every name of `res.set = res.header = function header() {}` is a
; definition of the function, by the rule its own assignment alone would follow (the patterns
; below come in pairs: the name at the head of the chain, then the names inside it). Each
; spans the whole chain (`@extent`), so they are siblings with one range, body and signature,
; and the statement holds definitions instead of being top-level code. A query cannot follow
; nesting to any depth: chains of up to three names are listed, more than code writes. A
; chain whose value is no function (`a.x = a.y = 5`) defines nothing, as `a.x = 5` does.
((program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (_) @_exports
        property: (property_identifier) @name)
      right: [
        (arrow_function body: (_) @body)
        (function_expression body: (_) @body)
        (assignment_expression
          right: [
            (arrow_function body: (_) @body)
            (function_expression body: (_) @body)
            (assignment_expression
              right: [
                (arrow_function body: (_) @body)
                (function_expression body: (_) @body)
              ])
          ])
      ]) @definition.function @exported))
  (#match? @_exports "^(module\\.)?exports$"))
((program
  (expression_statement
    (assignment_expression
      right: [
        (assignment_expression
          left: (member_expression
            object: (_) @_exports
            property: (property_identifier) @name)
          right: [
            (arrow_function body: (_) @body)
            (function_expression body: (_) @body)
            (assignment_expression
              right: [
                (arrow_function body: (_) @body)
                (function_expression body: (_) @body)
              ])
          ]) @definition.function @exported
        (assignment_expression
          right: (assignment_expression
            left: (member_expression
              object: (_) @_exports
              property: (property_identifier) @name)
            right: [
              (arrow_function body: (_) @body)
              (function_expression body: (_) @body)
            ]) @definition.function @exported)
      ]) @extent))
  (#match? @_exports "^(module\\.)?exports$"))

; A module's default export as a named function: `module.exports = function createApplication()
; {}`, `export default isSupported && function httpAdapter(config) {}`; also in a chain,
; `module.exports = exports = function createApplication() {}` and `exports = module.exports =
; function createApplication() {}`.
((expression_statement
  (assignment_expression
    left: (member_expression
      object: (identifier) @_module
      property: (property_identifier) @_exports)
    right: [
      (function_expression
        name: (identifier) @name
        body: (_) @body)
      (assignment_expression
        right: [
          (function_expression
            name: (identifier) @name
            body: (_) @body)
          (assignment_expression
            right: (function_expression
              name: (identifier) @name
              body: (_) @body))
        ])
    ]) @definition.function @exported)
  (#eq? @_module "module")
  (#eq? @_exports "exports"))
((expression_statement
  (assignment_expression
    right: [
      (assignment_expression
        left: (member_expression
          object: (identifier) @_module
          property: (property_identifier) @_exports)
        right: [
          (function_expression
            name: (identifier) @name
            body: (_) @body)
          (assignment_expression
            right: (function_expression
              name: (identifier) @name
              body: (_) @body))
        ]) @definition.function @exported
      (assignment_expression
        right: (assignment_expression
          left: (member_expression
            object: (identifier) @_module
            property: (property_identifier) @_exports)
          right: (function_expression
            name: (identifier) @name
            body: (_) @body)) @definition.function @exported)
    ]) @extent)
  (#eq? @_module "module")
  (#eq? @_exports "exports"))
; A module's default export as a named class: `module.exports = class Application extends
; Emitter {}` (its methods are found inside the class body); also in a chain.
((expression_statement
  (assignment_expression
    left: (member_expression
      object: (identifier) @_module
      property: (property_identifier) @_exports)
    right: [
      (class
        name: (_) @name
        body: (class_body) @body)
      (assignment_expression
        right: [
          (class
            name: (_) @name
            body: (class_body) @body)
          (assignment_expression
            right: (class
              name: (_) @name
              body: (class_body) @body))
        ])
    ]) @definition.class @exported)
  (#eq? @_module "module")
  (#eq? @_exports "exports"))
((expression_statement
  (assignment_expression
    right: [
      (assignment_expression
        left: (member_expression
          object: (identifier) @_module
          property: (property_identifier) @_exports)
        right: [
          (class
            name: (_) @name
            body: (class_body) @body)
          (assignment_expression
            right: (class
              name: (_) @name
              body: (class_body) @body))
        ]) @definition.class @exported
      (assignment_expression
        right: (assignment_expression
          left: (member_expression
            object: (identifier) @_module
            property: (property_identifier) @_exports)
          right: (class
            name: (_) @name
            body: (class_body) @body)) @definition.class @exported)
    ]) @extent)
  (#eq? @_module "module")
  (#eq? @_exports "exports"))
; A named function passed as an argument or returned is defined where it is written:
; `wrapAsync(async function dispatchHttpRequest(resolve, reject) {})`, a middleware factory's
; `return function routeHandler(req, res) {}`.
([
  (arguments
    (function_expression
      name: (identifier) @name
      body: (_) @body) @definition.function)
  (return_statement
    (function_expression
      name: (identifier) @name
      body: (_) @body) @definition.function)
])
(export_statement
  value: [
    (function_expression
      name: (identifier) @name
      body: (_) @body)
    (_
      (function_expression
        name: (identifier) @name
        body: (_) @body))
  ] @definition.function)

; An anonymous default export has no name of its own: it is named after its module, as the
; files importing it name it (axios's `export default (config) => {}` in
; `helpers/resolveConfig.js` is `resolveConfig`), at its `default` keyword, which is also
; the name an import finds it under (`import resolveConfig from './resolveConfig.js'` imports
; `default`). A function: written alone or in parentheses, or behind a feature test as the
; right operand of `&&`, `||` or `??` (axios's `export default isFetchSupported && (async
; (config) => {})`), where the whole value is the definition; or a branch of a conditional
; (`export default hasWorkers ? (task) => {} : (task) => {}`), whose signature is its first
; line. A class written without a name. (A named function or class is named by its name,
; above and in the declarations.)
(export_statement
  "default" @name.module
  value: [
    (arrow_function body: (_) @body)
    (function_expression !name body: (_) @body)
    (generator_function !name body: (_) @body)
    (parenthesized_expression
      [
        (arrow_function body: (_) @body)
        (function_expression !name body: (_) @body)
        (generator_function !name body: (_) @body)
      ])
    (binary_expression
      operator: ["&&" "||" "??"]
      right: [
        (arrow_function body: (_) @body)
        (function_expression !name body: (_) @body)
        (generator_function !name body: (_) @body)
        (parenthesized_expression
          [
            (arrow_function body: (_) @body)
            (function_expression !name body: (_) @body)
            (generator_function !name body: (_) @body)
          ])
      ])
  ] @definition.function)
(export_statement
  "default" @name.module
  value: (ternary_expression
    [
      consequence: [
        (arrow_function)
        (function_expression !name)
        (generator_function !name)
        (parenthesized_expression [(arrow_function) (function_expression !name) (generator_function !name)])
      ]
      alternative: [
        (arrow_function)
        (function_expression !name)
        (generator_function !name)
        (parenthesized_expression [(arrow_function) (function_expression !name) (generator_function !name)])
      ]
    ]) @definition.function)
(export_statement
  "default" @name.module
  value: (class !name body: (class_body) @body) @definition.class)

; Methods attached by assignment, at any depth: `res.send = function send(body) {}`,
; `Route.prototype.match = function () {}`, `inst._zod.parse = (payload) => {}`. The object is
; the container (`res`, `Route`, `inst._zod`); `prototype` is dropped by the extractor's
; container cleanup only when it is the last segment, so match it explicitly here. Also the
; names of a chained assignment (see the CommonJS exports above): `res.contentType = res.type =
; function contentType(type) {}`, `Foo.prototype.x = Foo.prototype.y = function () {}`.
(expression_statement
  (assignment_expression
    left: (member_expression
      object: (member_expression
        object: (_) @container
        property: (property_identifier) @_prototype)
      property: (property_identifier) @name)
    right: [
      (arrow_function body: (_) @body)
      (function_expression body: (_) @body)
      (assignment_expression
        right: [
          (arrow_function body: (_) @body)
          (function_expression body: (_) @body)
          (assignment_expression
            right: [
              (arrow_function body: (_) @body)
              (function_expression body: (_) @body)
            ])
        ])
    ]) @definition.method
  (#eq? @_prototype "prototype"))
(expression_statement
  (assignment_expression
    right: [
      (assignment_expression
        left: (member_expression
          object: (member_expression
            object: (_) @container
            property: (property_identifier) @_prototype)
          property: (property_identifier) @name)
        right: [
          (arrow_function body: (_) @body)
          (function_expression body: (_) @body)
          (assignment_expression
            right: [
              (arrow_function body: (_) @body)
              (function_expression body: (_) @body)
            ])
        ]) @definition.method
      (assignment_expression
        right: (assignment_expression
          left: (member_expression
            object: (member_expression
              object: (_) @container
              property: (property_identifier) @_prototype)
            property: (property_identifier) @name)
          right: [
            (arrow_function body: (_) @body)
            (function_expression body: (_) @body)
          ]) @definition.method)
    ]) @extent
  (#eq? @_prototype "prototype"))
(expression_statement
  (assignment_expression
    left: (member_expression
      object: (_) @container
      property: (property_identifier) @name)
    right: [
      (arrow_function body: (_) @body)
      (function_expression body: (_) @body)
      (assignment_expression
        right: [
          (arrow_function body: (_) @body)
          (function_expression body: (_) @body)
          (assignment_expression
            right: [
              (arrow_function body: (_) @body)
              (function_expression body: (_) @body)
            ])
        ])
    ]) @definition.method
  (#not-match? @container "^(module\\.)?exports$")
  (#not-eq? @name "exports"))
(expression_statement
  (assignment_expression
    right: [
      (assignment_expression
        left: (member_expression
          object: (_) @container
          property: (property_identifier) @name)
        right: [
          (arrow_function body: (_) @body)
          (function_expression body: (_) @body)
          (assignment_expression
            right: [
              (arrow_function body: (_) @body)
              (function_expression body: (_) @body)
            ])
        ]) @definition.method
      (assignment_expression
        right: (assignment_expression
          left: (member_expression
            object: (_) @container
            property: (property_identifier) @name)
          right: [
            (arrow_function body: (_) @body)
            (function_expression body: (_) @body)
          ]) @definition.method)
    ]) @extent
  (#not-match? @container "^(module\\.)?exports$")
  (#not-eq? @name "exports"))

; Members of object literals that a module exports or names at its top level: CommonJS
; `module.exports = { get header() {}, set(k, v) {} }` (also `const proto = module.exports =
; {...}`), `export default { ... }`, and `const api = { fetch() {} }` (the constant is the
; container). Object literals inside functions are values, not definitions.
((assignment_expression
  left: (_) @_exports
  right: (object
    [
      (method_definition
        name: (property_identifier) @name
        body: (statement_block) @body) @definition.function @exported
      (pair
        key: (property_identifier) @name
        value: [
          (arrow_function body: (_) @body)
          (function_expression body: (_) @body)
        ]) @definition.function @exported
    ]))
  (#match? @_exports "^(module\\.)?exports$"))
(export_statement
  value: (object
    [
      (method_definition
        name: (property_identifier) @name
        body: (statement_block) @body) @definition.function @exported
      (pair
        key: (property_identifier) @name
        value: [
          (arrow_function body: (_) @body)
          (function_expression body: (_) @body)
        ]) @definition.function @exported
    ]))
(program
  (lexical_declaration
    (variable_declarator
      name: (identifier) @container
      value: (object
        [
          (method_definition
            name: (property_identifier) @name
            body: (statement_block) @body) @definition.method
          (pair
            key: (property_identifier) @name
            value: [
              (arrow_function body: (_) @body)
              (function_expression body: (_) @body)
            ]) @definition.method
        ]))))
(export_statement
  declaration: (lexical_declaration
    (variable_declarator
      name: (identifier) @container
      value: (object
        [
          (method_definition
            name: (property_identifier) @name
            body: (statement_block) @body) @definition.method
          (pair
            key: (property_identifier) @name
            value: [
              (arrow_function body: (_) @body)
              (function_expression body: (_) @body)
            ]) @definition.method
        ]))))

; Members of an object literal that becomes a prototype, at any depth (pre-class code and
; libraries wrapped in a function: `Context.prototype = { get header() {}, accepts: function
; (types) {} }`, `jQuery.fn = jQuery.prototype = { init() {} }`). The constructor is the
; container.
(assignment_expression
  left: (member_expression
    object: (_) @container
    property: (property_identifier) @_prototype)
  right: (object
    [
      (method_definition
        name: (property_identifier) @name
        body: (statement_block) @body) @definition.method
      (pair
        key: (property_identifier) @name
        value: [
          (arrow_function body: (_) @body)
          (function_expression body: (_) @body)
        ]) @definition.method
    ])
  (#eq? @_prototype "prototype"))

; Methods of object literals handed to a call outside any function: class factories and
; mixins of pre-class code (`Server = new Class({ route: function () {} })`,
; `exports.View = Plugin.extend({ extend: { init() {} } })`) and options objects whose
; functions are the module's code (`createSlice({ reducers: { add(s) {} } })`,
; `defineComponent({ methods: { save() {} } })`). One level of nesting: the inner object's key
; is the container. Inside a function such an object is a value (a test's
; `ky.post(url, { onUploadProgress () {} })`), and a property descriptor
; (`Object.defineProperty(o, 'x', { get () {} })`) names no member of its own.
((_
  arguments: (arguments
    [
      (object
        [
          (method_definition
            name: (property_identifier) @name
            body: (statement_block) @body) @definition.method
          (pair
            key: (property_identifier) @name
            value: [
              (arrow_function body: (_) @body)
              (function_expression body: (_) @body)
            ]) @definition.method
        ])
      (object
        (pair
          key: (property_identifier) @container
          value: (object
            [
              (method_definition
                name: (property_identifier) @name
                body: (statement_block) @body) @definition.method
              (pair
                key: (property_identifier) @name
                value: [
                  (arrow_function body: (_) @body)
                  (function_expression body: (_) @body)
                ]) @definition.method
            ])))
    ])) @_call
  (#not-match? @_call "^(Object|Reflect)\\.definePropert")
  (#set! definition.outside "function_declaration function_expression arrow_function method_definition generator_function generator_function_declaration"))

; Test blocks: `describe('...', fn)`, `it(...)`, `test(...)` and their `.only`/`.skip`
; forms, named by their string (kept only in test files). They capture no body: the
; signature is their first line, `describe('cart', () =>`.
((call_expression
  function: [
    (identifier) @_test_fn
    (member_expression object: (identifier) @_test_fn)
  ]
  arguments: (arguments
    .
    [
      (string (string_fragment) @name)
      (template_string (string_fragment) @name)
    ])) @definition.test
  (#any-of? @_test_fn "describe" "it" "test"))

; References.
(call_expression
  function: (identifier) @name) @reference.call
(call_expression
  function: (member_expression
    object: (_) @receiver
    property: [(property_identifier) (private_property_identifier)] @name)) @reference.call
(new_expression
  constructor: (identifier) @name) @reference.call
(new_expression
  constructor: (member_expression
    object: (_) @receiver
    property: (property_identifier) @name)) @reference.call
(member_expression
  object: (_) @receiver
  property: [(property_identifier) (private_property_identifier)] @name) @reference.member

; A literal's members are its builtin type's (`'a,b'.split(',')`, `[a, b].map(f)`,
; `/^x/.test(s)`): the type a receiver is given.
(member_expression
  object: [(string) (template_string)] @receiver
  property: (property_identifier) @name
  (#set! receiver.type "String")) @reference.member
(member_expression
  object: (array) @receiver
  property: (property_identifier) @name
  (#set! receiver.type "Array")) @reference.member
(member_expression
  object: (object) @receiver
  property: (property_identifier) @name
  (#set! receiver.type "Object")) @reference.member
(member_expression
  object: (number) @receiver
  property: (property_identifier) @name
  (#set! receiver.type "Number")) @reference.member
(member_expression
  object: (regex) @receiver
  property: (property_identifier) @name
  (#set! receiver.type "RegExp")) @reference.member
(identifier) @reference.usage
(shorthand_property_identifier) @reference.usage
