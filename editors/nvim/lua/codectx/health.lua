-- :checkhealth codectx: the Neovim version, setup(), the server binary and its version, and
-- the index state of the running client.

local M = {}

-- vim.health.{start,ok,...} on 0.9+, the report_* functions of 0.7 and 0.8 before that.
local health = vim.health or require("health")
local start = health.start or health.report_start
local ok = health.ok or health.report_ok
local warn = health.warn or health.report_warn
local error = health.error or health.report_error
local info = health.info or health.report_info

function M.check()
  local config = require("codectx.config")
  local lsp = require("codectx.lsp")

  start("codectx")
  if vim.fn.has("nvim-0.7") == 1 then
    ok("Neovim 0.7 or newer")
  else
    error("Neovim 0.7 or newer is required")
  end
  if config.did_setup then
    ok("setup() was called")
  else
    warn("setup() was not called", { 'Add require("codectx").setup({}) to your init.lua' })
  end

  local cmd = config.cmd()
  local binary = vim.fn.exepath(cmd[1])
  if binary == "" then
    error(string.format("server binary not found: %s", cmd[1]), {
      "Build it with `cargo build --release -p codectx` and put target/release/codectx on PATH",
      'or set require("codectx").setup({ server_path = "/path/to/codectx" })',
    })
  else
    ok("server binary: " .. binary)
    local version = vim.fn.system({ binary, "--version" })
    if vim.v.shell_error == 0 then
      ok("server version: " .. vim.trim(version))
    else
      error("`" .. binary .. " --version` failed: " .. vim.trim(version))
    end
  end

  local client = lsp.get_client()
  if not client then
    info("no codectx client is running (open a Python, TypeScript, JavaScript, Go or Rust file)")
    return
  end
  ok(string.format("client %d running, root %s", client.id, client.config.root_dir or "?"))
  local status, err = lsp.request_sync(client, "workspace/executeCommand", { command = "codectx.status" }, 5000)
  if not status then
    warn("codectx.status failed: " .. vim.inspect(err))
    return
  end
  local text = require("codectx.commands").format_status(status)
  if status.state == "ready" then
    ok("index: " .. text)
  else
    info("index: " .. text)
  end
end

return M
