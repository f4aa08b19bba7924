; Python definitions and references.
; Vocabulary: see ../README.md.

(class_definition
  name: (identifier) @name
  body: (block) @body) @definition.class

(function_definition
  name: (identifier) @name
  body: (block) @body) @definition.function

; Base classes (not keyword arguments such as `metaclass=`): `class ModelAdmin(BaseModelAdmin)`,
; `class LoginForm(forms.Form)`, `class UserRepo(Repo[User])`.
(class_definition
  superclasses: (argument_list [(identifier) (attribute) (subscript)] @base)) @definition.class

; Docstrings: the first statement of a body, when it is a string.
(class_definition
  body: (block . (expression_statement (string) @doc))) @definition.class
(function_definition
  body: (block . (expression_statement (string) @doc))) @definition.function

; Tests (kept as tests only in test files): `test_*` functions and `Test*` classes.
(function_definition
  name: (identifier) @test (#match? @test "^test")) @definition.function
(class_definition
  name: (identifier) @test (#match? @test "^Test")) @definition.class

; Module-level assignments: UPPER_CASE names (Unicode upper case included) are constants,
; the rest variables.
(module
  (expression_statement
    (assignment left: (identifier) @name) @definition.constant)
  (#match? @name "^_*\\p{Lu}[\\p{Lu}\\p{Nd}_]*$"))
(module
  (expression_statement
    (assignment left: (identifier) @name) @definition.variable)
  (#not-match? @name "^_*\\p{Lu}[\\p{Lu}\\p{Nd}_]*$"))

; Class attributes (dataclass and model fields).
(class_definition
  body: (block
    (expression_statement
      (assignment left: (identifier) @name) @definition.field)))

; References.
(call
  function: (identifier) @name) @reference.call
(call
  function: (attribute
    object: (_) @receiver
    attribute: (identifier) @name)) @reference.call
(attribute
  object: (_) @receiver
  attribute: (identifier) @name) @reference.member

; A literal's members are its builtin type's (`", ".join(names)`, `{"http": 80}.get(k)`):
; the type a receiver is given, bytes before other strings.
(attribute
  object: (string (string_start) @_start) @receiver
  attribute: (identifier) @name
  (#match? @_start "^[rR]?[bB]")
  (#set! receiver.type "bytes")) @reference.member
(attribute
  object: [(string) (concatenated_string)] @receiver
  attribute: (identifier) @name
  (#set! receiver.type "str")) @reference.member
(attribute
  object: [(list) (list_comprehension)] @receiver
  attribute: (identifier) @name
  (#set! receiver.type "list")) @reference.member
(attribute
  object: [(dictionary) (dictionary_comprehension)] @receiver
  attribute: (identifier) @name
  (#set! receiver.type "dict")) @reference.member
(attribute
  object: [(set) (set_comprehension)] @receiver
  attribute: (identifier) @name
  (#set! receiver.type "set")) @reference.member
(attribute
  object: (tuple) @receiver
  attribute: (identifier) @name
  (#set! receiver.type "tuple")) @reference.member
(attribute
  object: (integer) @receiver
  attribute: (identifier) @name
  (#set! receiver.type "int")) @reference.member
(attribute
  object: (float) @receiver
  attribute: (identifier) @name
  (#set! receiver.type "float")) @reference.member
((identifier) @reference.usage
  (#not-any-of? @reference.usage "self" "cls"))
