/* The archive linked into the image, read-only in SSRAM1 and 64-byte
 * aligned so the session uses its constants in place (no copy to RAM).
 * HOLO_BOARD_ARCHIVE is the path, passed by baremetal.mk. */
  .section .rodata.holo_archive, "a"
  .balign 64
  .global board_archive
board_archive:
  .incbin HOLO_BOARD_ARCHIVE
  .global board_archive_end
board_archive_end:
  .byte 0
