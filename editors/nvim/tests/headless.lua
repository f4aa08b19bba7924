-- Headless test of codectx.nvim, run by tests/tests/editors.rs:
--   nvim --headless --clean -c "luafile editors/nvim/tests/headless.lua"
-- Inputs (environment): CODECTX_BIN (the server), CODECTX_PLUGIN (editors/nvim),
-- CODECTX_ROOT (a copy of fixtures/py_shop/repo), CODECTX_OUT (answers, written as JSON).
-- Loads the plugin as a user would, opens a Python file, waits for the index, then runs
-- go-to-definition, workspace symbols, :CodectxContext, :CodectxContext!, :CodectxStatus and
-- :checkhealth codectx. Exits with 0 after writing the answers, 1 on any error.

local out_path = os.getenv("CODECTX_OUT")
local answers = { nvim = tostring(vim.version().major) .. "." .. tostring(vim.version().minor) }

local function write_out()
  local file = assert(io.open(out_path, "w"))
  file:write(vim.fn.json_encode(answers))
  file:close()
end

local function wait_for(what, timeout_ms, predicate)
  assert(vim.wait(timeout_ms, predicate, 20), "timed out waiting for " .. what)
end

local notifications = {}
vim.notify = function(message, level)
  table.insert(notifications, { message = message, level = level })
end

local function notified(pattern)
  for _, notification in ipairs(notifications) do
    if notification.message:find(pattern) then
      return notification.message
    end
  end
end

local function find_in_buffer(needle)
  for idx, line in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
    local col = line:find(needle, 1, true)
    if col then
      return idx, col - 1
    end
  end
  error(needle .. " not in buffer")
end

local function run()
  local bin = assert(os.getenv("CODECTX_BIN"), "CODECTX_BIN")
  local root = assert(os.getenv("CODECTX_ROOT"), "CODECTX_ROOT")
  vim.opt.runtimepath:prepend(assert(os.getenv("CODECTX_PLUGIN"), "CODECTX_PLUGIN"))
  vim.cmd("runtime plugin/codectx.lua")
  vim.cmd("filetype on")

  -- Invalid options are refused with a message naming the key.
  local setup_ok, setup_err = pcall(require("codectx").setup, { context = { format = "html" } })
  assert(not setup_ok, "setup accepted an invalid format")
  answers.invalid_setup = tostring(setup_err)

  require("codectx").setup({ server_path = bin, settings = { symbols = { limit = 50 } } })

  vim.cmd("edit " .. vim.fn.fnameescape(root .. "/shop/api/views.py"))
  local views = vim.api.nvim_get_current_buf()
  wait_for("the client", 20000, function()
    local client = require("codectx").client()
    return client ~= nil and client.initialized and vim.lsp.buf_is_attached(views, client.id)
  end)
  local client = require("codectx").client()
  answers.root_dir = client.config.root_dir
  local status = require("codectx.lsp").request_sync(
    client,
    "workspace/executeCommand",
    { command = "codectx.status", arguments = { { wait = true } } },
    60000,
    views
  )
  answers.status = status

  -- Go to definition, as `gd` mapped to vim.lsp.buf.definition() does.
  local line, col = find_in_buffer("service.place_order(cart)")
  vim.api.nvim_win_set_cursor(0, { line, col + #"service." + 2 })
  vim.lsp.buf.definition()
  wait_for("the definition jump", 20000, function()
    return vim.api.nvim_get_current_buf() ~= views
  end)
  answers.definition = {
    file = vim.api.nvim_buf_get_name(0),
    line = vim.api.nvim_win_get_cursor(0)[1],
    text = vim.api.nvim_get_current_line(),
  }
  vim.cmd("buffer " .. views)

  -- Workspace symbols fill the quickfix list.
  vim.lsp.buf.workspace_symbol("OrderService")
  wait_for("workspace symbols", 20000, function()
    return #vim.fn.getqflist() > 0
  end)
  local first = vim.fn.getqflist()[1]
  answers.symbol = { file = vim.api.nvim_buf_get_name(first.bufnr), text = first.text }
  vim.cmd("cclose")
  vim.cmd("buffer " .. views)

  -- :CodectxContext opens a Markdown scratch buffer.
  vim.cmd("CodectxContext fix the crash in DatabaseClient.connect when the URL is empty")
  wait_for(":CodectxContext", 90000, function()
    return vim.fn.bufnr("codectx://context") ~= -1
  end)
  local context_buf = vim.fn.bufnr("codectx://context")
  answers.context = {
    filetype = vim.bo[context_buf].filetype,
    buftype = vim.bo[context_buf].buftype,
    modifiable = vim.bo[context_buf].modifiable,
    text = table.concat(vim.api.nvim_buf_get_lines(context_buf, 0, -1, false), "\n"),
    message = notified("^codectx: context:"),
  }
  vim.cmd("close")
  vim.cmd("buffer " .. views)

  -- :CodectxContext! yanks instead (no clipboard when headless: the unnamed register).
  vim.fn.setreg('"', "")
  vim.cmd("CodectxContext! where is the order total computed")
  wait_for(":CodectxContext!", 90000, function()
    return notified("yanked to register") ~= nil
  end)
  answers.yank = { register = vim.fn.getreg('"'), message = notified("yanked to register") }

  vim.cmd("CodectxStatus")
  wait_for(":CodectxStatus", 10000, function()
    return notified("^codectx: ready") ~= nil
  end)
  answers.status_message = notified("^codectx: ready")

  vim.cmd("checkhealth codectx")
  answers.health = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")

  answers.ok = true
  write_out()
  require("codectx.lsp").stop()
  vim.wait(5000, function()
    return require("codectx").client() == nil
  end, 20)
end

local ok, err = pcall(run)
if not ok then
  answers.ok = false
  answers.error = tostring(err)
  answers.notifications = notifications
  write_out()
  vim.cmd("cquit 1")
end
vim.cmd("qall!")
