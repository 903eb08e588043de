;; Emacs with flycheck: a checker that runs the launcher on the file being
;; edited (saved), with the project's compile database in ./build.
(flycheck-define-checker cuda-async-read-before-sync
  "cuda-async-read-before-sync: host reads of async CUDA copies before a sync."
  :command ("cuda-async-read-before-sync" "--quiet" "-p" "build" source-original)
  :error-patterns
  ((warning line-start (file-name) ":" line ":" column ": warning: "
            (message) line-end)
   (error line-start (file-name) ":" line ":" column ": error: "
          (message) line-end)
   (info line-start (file-name) ":" line ":" column ": note: "
         (message) line-end))
  :modes (c-mode c++-mode cuda-mode))
(add-to-list 'flycheck-checkers 'cuda-async-read-before-sync t)
