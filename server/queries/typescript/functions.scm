; TypeScript function values, compiled before ../javascript/tags.scm for the TypeScript and
; TSX grammars. Vocabulary: see ../README.md.
; They come first because the first pattern to give a definition a kind wins: a module-level
; `const` whose value is a function cast with `as` or checked with `satisfies` is a function,
; not the constant ../javascript/tags.scm makes of any other module-level `const` value.

; got's `const got: Got = ((url, options) => makeRequest(url, options)) as Got;`, also
; `satisfies`, and a function expression cast without parentheses.
(variable_declarator
  name: (identifier) @name
  value: [
    (as_expression
      .
      [
        (function_expression body: (_) @body)
        (generator_function body: (_) @body)
        (parenthesized_expression
          [
            (arrow_function body: (_) @body)
            (function_expression body: (_) @body)
            (generator_function body: (_) @body)
          ])
      ])
    (satisfies_expression
      .
      [
        (function_expression body: (_) @body)
        (generator_function body: (_) @body)
        (parenthesized_expression
          [
            (arrow_function body: (_) @body)
            (function_expression body: (_) @body)
            (generator_function body: (_) @body)
          ])
      ])
  ]) @definition.function

; The same as an anonymous default export, named after its module (see
; ../javascript/tags.scm): `export default (() => <Page />) satisfies Route`.
(export_statement
  "default" @name.module
  value: [
    (as_expression
      .
      (parenthesized_expression
        [
          (arrow_function body: (_) @body)
          (function_expression !name body: (_) @body)
          (generator_function !name body: (_) @body)
        ]))
    (satisfies_expression
      .
      (parenthesized_expression
        [
          (arrow_function body: (_) @body)
          (function_expression !name body: (_) @body)
          (generator_function !name body: (_) @body)
        ]))
  ] @definition.function)
