// What each phone model of the lab shows that a spec cannot say for all of them at once: colours and display
// settings. Places are fractions of the screen and icons images in the specs themselves, the same on every phone.
// Here they are the four phones of the embedded simulator's default scenario; copy and adapt.

export interface PhoneModel {
  /** The home-screen wallpaper's colour. */
  wallpaper: string;
  settings: { orientation: 'portrait' | 'landscape'; resolution: string; resolutionMode: string; accl: string; hwDecode: 'yes' | 'no' };
}

export const PHONES: Record<string, PhoneModel> = {
  // The vendor's example phone: pixel (100, 100) is 0x25425c.
  'galaxy-s9': {
    wallpaper: '0x25425c',
    settings: { orientation: 'portrait', resolution: '1080*1920', resolutionMode: '640p', accl: 'DirectX', hwDecode: 'yes' },
  },
  'pixel-7': {
    wallpaper: '0x3b1f4a',
    settings: { orientation: 'portrait', resolution: '1080*2400', resolutionMode: '1080p', accl: 'DirectX', hwDecode: 'yes' },
  },
  'galaxy-tab-s7': {
    wallpaper: '0x0f3d2e',
    settings: { orientation: 'landscape', resolution: '2560*1600', resolutionMode: '1080p', accl: 'OpenGL', hwDecode: 'yes' },
  },
  'moto-g5': {
    wallpaper: '0x5c2a1e',
    settings: { orientation: 'landscape', resolution: '1280*720', resolutionMode: '720p', accl: 'DirectX', hwDecode: 'no' },
  },
};

/** The model of the phone this project runs on (the project is named after the phone). */
export function modelOf(projectName: string): PhoneModel {
  const model = PHONES[projectName];
  if (!model) throw new Error(`no expectations for phone "${projectName}" in specs/phones.ts: add its model`);
  return model;
}
