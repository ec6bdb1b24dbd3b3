/**
 * Checking an export: the structure of a FlatBuffer against its schema ({@link
 * dev.flatdump.artifact.check.SchemaVerifier}), an export's files against its manifest without
 * MongoDB ({@link dev.flatdump.artifact.check.ExportChecker}), and every record against its source
 * document by an oracle of the mapping rules of its own ({@link
 * dev.flatdump.artifact.check.SchemaExportVerifier}).
 */
package dev.flatdump.artifact.check;
