/**
 * Publishing a finished export to S3-compatible object storage: every file the manifest lists,
 * verified by SHA-256, then {@code manifest.json}, then the {@code CURRENT} pointer. The local
 * publish is {@code artifact.write}'s.
 */
package dev.flatdump.publish;
