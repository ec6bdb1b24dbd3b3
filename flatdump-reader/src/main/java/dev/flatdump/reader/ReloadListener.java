package dev.flatdump.reader;

import java.nio.file.Path;

/**
 * Hears of each reload of an {@link ExportReader}: a switch to a newer export, or a newer export
 * that could not be opened (the old one stays current). Called on the thread that reloads; must not
 * block, and must not throw (what it throws is ignored).
 */
public interface ReloadListener {

  /** The reader switched from export {@code oldId} to export {@code newId}. */
  default void refreshed(String oldId, String newId) {}

  /** The export in {@code dir}, which the pointer names, was refused; {@code currentId} stays. */
  default void failed(Path dir, String currentId, ReaderException cause) {}
}
