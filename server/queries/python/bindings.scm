; Python bindings: names whose type is annotated or constructed, so that `x.method()`
; resolves. Vocabulary: see ../README.md. The first pattern that types a name wins:
; `Optional[X]` comes before the general annotation.

; Annotated parameters and variables: `def f(client: Client)`, `store: Optional[Store] = None`.
(typed_parameter
  (identifier) @name
  type: (type
    (generic_type
      (identifier) @_optional
      (type_parameter . (type) @type)))
  (#eq? @_optional "Optional")) @binding.local
(typed_default_parameter
  name: (identifier) @name
  type: (type
    (generic_type
      (identifier) @_optional
      (type_parameter . (type) @type)))
  (#eq? @_optional "Optional")) @binding.local
(typed_parameter
  (identifier) @name
  type: (type) @type
  (#not-any-of? @type "Any" "object")) @binding.local
(typed_default_parameter
  name: (identifier) @name
  type: (type) @type
  (#not-any-of? @type "Any" "object")) @binding.local
(assignment
  left: (identifier) @name
  type: (type) @type
  (#not-any-of? @type "Any" "object")) @binding.local

; Variables set to a new instance: `client = Client(url)`, `w = textwrap.TextWrapper()`.
(assignment
  left: (identifier) @name
  right: (call
    function: [
      (identifier) @type
      (attribute attribute: (identifier) @type)
    ])
  (#match? @type "^[A-Z]")) @binding.local

; A context manager's name: `with Client(url) as client:` (its `__enter__` is taken to return
; the instance, as most do), `with open_pool(url) as pool:` (what the function returns).
(with_item
  value: (as_pattern
    (call
      function: [
        (identifier) @type
        (attribute attribute: (identifier) @type)
      ])
    alias: (as_pattern_target (identifier) @name))
  (#match? @type "^[A-Z]")) @binding.local

; Members set in methods: `self.pool = ConnectionPool()`, `self.pool: Pool = ...`.
(assignment
  left: (attribute
    object: (identifier) @_self
    attribute: (identifier) @name)
  type: (type) @type
  (#eq? @_self "self")
  (#not-any-of? @type "Any" "object")) @binding.member
(assignment
  left: (attribute
    object: (identifier) @_self
    attribute: (identifier) @name)
  right: (call
    function: [
      (identifier) @type
      (attribute attribute: (identifier) @type)
    ])
  (#eq? @_self "self")
  (#match? @type "^[A-Z]")) @binding.member

; Properties: `x.pool` holds what the getter returns, as a field of that type would
; (`@property`, `@cached_property`, `@functools.cached_property`; `-> Pool`,
; `-> "Pool"`, `-> Optional[Pool]`, `-> Pool | None`). A method that is not a property is
; a bound method until called, so it binds nothing.
(decorated_definition
  (decorator [
    (identifier) @_property
    (attribute attribute: (identifier) @_property)
  ])
  definition: (function_definition
    name: (identifier) @name
    return_type: (type
      (generic_type
        (identifier) @_optional
        (type_parameter . (type) @type))))
  (#any-of? @_property "property" "cached_property")
  (#eq? @_optional "Optional")) @binding.member
(decorated_definition
  (decorator [
    (identifier) @_property
    (attribute attribute: (identifier) @_property)
  ])
  definition: (function_definition
    name: (identifier) @name
    return_type: (type) @type)
  (#any-of? @_property "property" "cached_property")
  (#not-any-of? @type "Any" "object")) @binding.member

; Variables set to what a function returns: `client = make_client()`, `c = api.connect()`
; (a class called is a constructor, typed by the pattern above, which comes first).
(assignment
  left: (identifier) @name
  right: (call
    function: [
      (identifier) @call
      (attribute attribute: (identifier) @call)
    ])) @binding.local

(with_item
  value: (as_pattern
    (call
      function: [
        (identifier) @call
        (attribute attribute: (identifier) @call)
      ])
    alias: (as_pattern_target (identifier) @name))) @binding.local

; What functions return (`-> Store`, `-> Optional[Store]`), for the bindings above.
(function_definition
  return_type: (type
    (generic_type
      (identifier) @_optional
      (type_parameter . (type) @type)))
  (#eq? @_optional "Optional")) @definition.function
(function_definition
  return_type: (type) @type) @definition.function
