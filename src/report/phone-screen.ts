/**
 * The attachment of a phone's whole screen at a test's failure: the fixtures write it, the history links to it.
 * A module of its own, so a worker loads no more than the name at its start.
 */
export const PHONE_SCREEN = 'phone-screen.png';

/** The attachment of a test's film of its phone (docs/video.md): a WebM file, which the HTML report keeps as `data/<sha1>.webm`. */
export const PHONE_VIDEO = 'phone-video';

/** The attachment of a film's captions, the test's steps as WebVTT, beside its {@link PHONE_VIDEO} (the review lists them). */
export const PHONE_VIDEO_CAPTIONS = 'phone-video-captions';
