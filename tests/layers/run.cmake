# The layer check's test (ctest layers_*): configures the small project of
# this folder with CASE planted and checks the outcome: CASE=ok must
# configure, any other must fail and print EXPECT (a literal text).
#   cmake -DCASE=… -DEXPECT=… -DWORK=DIR -DOCTAVO_CMAKE_DIR=… -P run.cmake
file(REMOVE_RECURSE ${WORK})
execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${CMAKE_CURRENT_LIST_DIR} -B ${WORK}
          -DCASE=${CASE} -DOCTAVO_CMAKE_DIR=${OCTAVO_CMAKE_DIR}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(REMOVE_RECURSE ${WORK})
message("${out}${err}")
if(CASE STREQUAL "ok")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the clean project did not configure")
  endif()
elseif(rc EQUAL 0)
  message(FATAL_ERROR "CASE=${CASE} configured: the planted mistake passed")
else()
  string(FIND "${err}" "${EXPECT}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "CASE=${CASE} failed without saying '${EXPECT}'")
  endif()
endif()
