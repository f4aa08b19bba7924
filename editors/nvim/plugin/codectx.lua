-- codectx.nvim commands. The client starts only after require("codectx").setup().

if vim.g.loaded_codectx then
  return
end
vim.g.loaded_codectx = true

if vim.fn.has("nvim-0.7") == 0 then
  vim.api.nvim_err_writeln("codectx.nvim needs Neovim 0.7 or newer")
  return
end

vim.api.nvim_create_user_command("CodectxContext", function(args)
  require("codectx.commands").context_command(args)
end, { nargs = "*", bang = true, desc = "codectx: context for a task (! yanks it)" })

vim.api.nvim_create_user_command("CodectxStatus", function()
  require("codectx.commands").status()
end, { nargs = 0, desc = "codectx: show the index status" })

vim.api.nvim_create_user_command("CodectxReindex", function()
  require("codectx.commands").reindex()
end, { nargs = 0, desc = "codectx: rebuild the index from disk" })

vim.api.nvim_create_user_command("CodectxRestart", function()
  require("codectx.commands").restart()
end, { nargs = 0, desc = "codectx: restart the language server" })
