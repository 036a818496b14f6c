# The C example of docs/embedding.md, taken from the document itself (the
# ```c block that ends with <!-- end of example -->), so the document cannot
# drift from the API. The source is written only when its text changed: a
# configure that rewrote it made the example (and `make demo`) recompile
# every time.
function(steer_extract_embedding_example doc out)
  file(READ ${doc} text)
  string(REGEX MATCH "```c\n(.*)\n```\n<!-- end of example -->" example "${text}")
  set(example "${CMAKE_MATCH_1}")
  if(example STREQUAL "")
    message(FATAL_ERROR "${doc}: no ```c block ending with <!-- end of example -->")
  endif()
  # a scratch copy, then configure_file: it leaves ${out} alone when equal
  file(WRITE ${out}.new "${example}\n")
  configure_file(${out}.new ${out} COPYONLY)
  file(REMOVE ${out}.new)
endfunction()
