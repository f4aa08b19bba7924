; JSX references, compiled for JavaScript and TSX only (the TypeScript grammar has no JSX).
; Using a component is a call of it: `<Button />`, `<Menu.Item>`. Lower-case names are
; intrinsic elements (`<div>`), not calls.

((jsx_opening_element
  name: (identifier) @name) @reference.call
  (#match? @name "^[A-Z]"))
((jsx_self_closing_element
  name: (identifier) @name) @reference.call
  (#match? @name "^[A-Z]"))
(jsx_opening_element
  name: (member_expression
    object: (_) @receiver
    property: (property_identifier) @name)) @reference.call
(jsx_self_closing_element
  name: (member_expression
    object: (_) @receiver
    property: (property_identifier) @name)) @reference.call
