/**
 * Publishing a finished export to S3: every file the manifest lists, verified by SHA-256, then
 * {@code manifest.json} last.
 */
package dev.flatdump.publish;
