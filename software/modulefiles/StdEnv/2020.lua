-- StdEnv/2020: the Alliance's previous standard environment, kept so that job scripts written
-- for it (`module load StdEnv/2020`, as in the course's slides) run, and so that
-- `module swap StdEnv/2023 StdEnv/2020` can be practised. Same family as StdEnv/2023: loading
-- one replaces the other. Sticky, like 2023.
help([[
The previous standard software environment. On the Alliance's clusters StdEnv/2020 brings
older compilers and libraries (gcc 9, Python up to 3.11); minicluster has only this machine's
gcc and python, so StdEnv/2020 here loads the same gcc as StdEnv/2023 and differs only in its
name ($MINICLUSTER_STDENV). Versions that only exist on a real cluster (python/3.9.6, ...) are
not here: `module spider python` shows the ones that are.
]])
whatis("Description: the previous standard environment (same software as StdEnv/2023 here)")
add_property("lmod", "sticky")
family("StdEnv")
if not isloaded("gcc") then
    load("gcc")
end
setenv("MINICLUSTER_STDENV", "2020")
