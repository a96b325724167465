/** The recording capability: the screen as a video. */

export interface RecordingCapability {
  /**
   * Records the screen as MP4 until the time limit (seconds) or until `signal` aborts, and returns the video.
   * UNSUPPORTED where the device has no `screenrecord`.
   */
  screenRecord(timeLimitSeconds: number, signal?: AbortSignal): Promise<Buffer>
}
