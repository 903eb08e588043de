" Vim with ALE: lint .cu (filetype cuda) with ALE's C++ clang-tidy linter,
" run through the launcher (it loads the plugin and enables the check).
let g:ale_linter_aliases = {'cuda': ['cuda', 'cpp']}
let g:ale_linters = {'cuda': ['clangtidy'], 'cpp': ['clangtidy']}
let g:ale_cpp_clangtidy_executable = 'cuda-async-read-before-sync'
let g:ale_cpp_clangtidy_checks = ['cuda-async-read-before-sync']
let g:ale_c_build_dir = 'build'
