-- StdEnv/2023: minicluster's standard environment, modelled on the Alliance's StdEnv/2023.
-- Loaded at login and sticky: `module purge` keeps it (`module --force purge` removes it).
help([[
The standard software environment of this cluster: the compiler (gcc) everything else is
built with. On the Alliance's clusters StdEnv/2023 also brings OpenMPI, FlexiBLAS and more;
minicluster ships gcc, python and cuda only.
]])
whatis("Description: the standard environment (compilers) of the cluster")
add_property("lmod", "sticky")
family("StdEnv")
if not isloaded("gcc") then
    load("gcc")
end
setenv("MINICLUSTER_STDENV", "2023")
