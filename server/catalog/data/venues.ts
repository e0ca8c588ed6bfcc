import type { PlaceFact, VenueFact } from './types.js';

type Place = Pick<PlaceFact, 'city' | 'state' | 'stateName' | 'country' | 'timeZone'>;

const ET = 'America/New_York';
const CT = 'America/Chicago';
const MT = 'America/Denver';
const AZ = 'America/Phoenix';
const PT = 'America/Los_Angeles';

const us = (city: string, state: string, stateName: string, timeZone: string): Place => ({ city, state, stateName, country: 'US', timeZone });

// United States
const NYC = us('New York', 'NY', 'New York', ET);
const LA = us('Los Angeles', 'CA', 'California', PT);
const INGLEWOOD = us('Inglewood', 'CA', 'California', PT);
const PASADENA = us('Pasadena', 'CA', 'California', PT);
const WEHO = us('West Hollywood', 'CA', 'California', PT);
const LONG_BEACH = us('Long Beach', 'CA', 'California', PT);
const COSTA_MESA = us('Costa Mesa', 'CA', 'California', PT);
const INDIAN_WELLS = us('Indian Wells', 'CA', 'California', PT);
const SF = us('San Francisco', 'CA', 'California', PT);
const OAKLAND = us('Oakland', 'CA', 'California', PT);
const BERKELEY = us('Berkeley', 'CA', 'California', PT);
const MOUNTAIN_VIEW = us('Mountain View', 'CA', 'California', PT);
const SAN_JOSE = us('San Jose', 'CA', 'California', PT);
const SACRAMENTO = us('Sacramento', 'CA', 'California', PT);
const SAN_DIEGO = us('San Diego', 'CA', 'California', PT);
const CHICAGO = us('Chicago', 'IL', 'Illinois', CT);
const ROSEMONT = us('Rosemont', 'IL', 'Illinois', CT);
const BOSTON = us('Boston', 'MA', 'Massachusetts', ET);
const PHILADELPHIA = us('Philadelphia', 'PA', 'Pennsylvania', ET);
const PITTSBURGH = us('Pittsburgh', 'PA', 'Pennsylvania', ET);
const STATE_COLLEGE = us('State College', 'PA', 'Pennsylvania', ET);
const DC = us('Washington', 'DC', 'District of Columbia', ET);
const BALTIMORE = us('Baltimore', 'MD', 'Maryland', ET);
const COLUMBIA_MD = us('Columbia', 'MD', 'Maryland', ET);
const ATLANTA = us('Atlanta', 'GA', 'Georgia', ET);
const AUGUSTA = us('Augusta', 'GA', 'Georgia', ET);
const ATHENS = us('Athens', 'GA', 'Georgia', ET);
const SAVANNAH = us('Savannah', 'GA', 'Georgia', ET);
const DALLAS = us('Dallas', 'TX', 'Texas', CT);
const FORT_WORTH = us('Fort Worth', 'TX', 'Texas', CT);
const HOUSTON = us('Houston', 'TX', 'Texas', CT);
const WOODLANDS = us('The Woodlands', 'TX', 'Texas', CT);
const SAN_ANTONIO = us('San Antonio', 'TX', 'Texas', CT);
const AUSTIN = us('Austin', 'TX', 'Texas', CT);
const EL_PASO = us('El Paso', 'TX', 'Texas', MT);
const PHOENIX = us('Phoenix', 'AZ', 'Arizona', AZ);
const TEMPE = us('Tempe', 'AZ', 'Arizona', AZ);
const GLENDALE_AZ = us('Glendale', 'AZ', 'Arizona', AZ);
const AVONDALE = us('Avondale', 'AZ', 'Arizona', AZ);
const SCOTTSDALE = us('Scottsdale', 'AZ', 'Arizona', AZ);
const TUCSON = us('Tucson', 'AZ', 'Arizona', AZ);
const SEATTLE = us('Seattle', 'WA', 'Washington', PT);
const SPOKANE = us('Spokane', 'WA', 'Washington', PT);
const PORTLAND = us('Portland', 'OR', 'Oregon', PT);
const DENVER = us('Denver', 'CO', 'Colorado', MT);
const MORRISON = us('Morrison', 'CO', 'Colorado', MT);
const MINNEAPOLIS = us('Minneapolis', 'MN', 'Minnesota', CT);
const SAINT_PAUL = us('Saint Paul', 'MN', 'Minnesota', CT);
const DETROIT = us('Detroit', 'MI', 'Michigan', 'America/Detroit');
const ANN_ARBOR = us('Ann Arbor', 'MI', 'Michigan', 'America/Detroit');
const GRAND_RAPIDS = us('Grand Rapids', 'MI', 'Michigan', 'America/Detroit');
const CLEVELAND = us('Cleveland', 'OH', 'Ohio', ET);
const CUYAHOGA_FALLS = us('Cuyahoga Falls', 'OH', 'Ohio', ET);
const COLUMBUS = us('Columbus', 'OH', 'Ohio', ET);
const DUBLIN_OH = us('Dublin', 'OH', 'Ohio', ET);
const CINCINNATI = us('Cincinnati', 'OH', 'Ohio', ET);
const MASON = us('Mason', 'OH', 'Ohio', ET);
const MIAMI = us('Miami', 'FL', 'Florida', ET);
const MIAMI_BEACH = us('Miami Beach', 'FL', 'Florida', ET);
const HOLLYWOOD_FL = us('Hollywood', 'FL', 'Florida', ET);
const HOMESTEAD = us('Homestead', 'FL', 'Florida', ET);
const TAMPA = us('Tampa', 'FL', 'Florida', ET);
const ORLANDO = us('Orlando', 'FL', 'Florida', ET);
const JACKSONVILLE = us('Jacksonville', 'FL', 'Florida', ET);
const DAYTONA_BEACH = us('Daytona Beach', 'FL', 'Florida', ET);
const TALLAHASSEE = us('Tallahassee', 'FL', 'Florida', ET);
const GAINESVILLE = us('Gainesville', 'FL', 'Florida', ET);
const NASHVILLE = us('Nashville', 'TN', 'Tennessee', CT);
const MEMPHIS = us('Memphis', 'TN', 'Tennessee', CT);
const KNOXVILLE = us('Knoxville', 'TN', 'Tennessee', ET);
const CHATTANOOGA = us('Chattanooga', 'TN', 'Tennessee', ET);
const BRISTOL = us('Bristol', 'TN', 'Tennessee', ET);
const NEW_ORLEANS = us('New Orleans', 'LA', 'Louisiana', CT);
const BATON_ROUGE = us('Baton Rouge', 'LA', 'Louisiana', CT);
const KANSAS_CITY_MO = us('Kansas City', 'MO', 'Missouri', CT);
const KANSAS_CITY_KS = us('Kansas City', 'KS', 'Kansas', CT);
const ST_LOUIS = us('St. Louis', 'MO', 'Missouri', CT);
const INDIANAPOLIS = us('Indianapolis', 'IN', 'Indiana', 'America/Indiana/Indianapolis');
const SOUTH_BEND = us('South Bend', 'IN', 'Indiana', 'America/Indiana/Indianapolis');
const MILWAUKEE = us('Milwaukee', 'WI', 'Wisconsin', CT);
const MADISON = us('Madison', 'WI', 'Wisconsin', CT);
const CHARLOTTE = us('Charlotte', 'NC', 'North Carolina', ET);
const CONCORD_NC = us('Concord', 'NC', 'North Carolina', ET);
const RALEIGH = us('Raleigh', 'NC', 'North Carolina', ET);
const DURHAM = us('Durham', 'NC', 'North Carolina', ET);
const GREENSBORO = us('Greensboro', 'NC', 'North Carolina', ET);
const SALT_LAKE_CITY = us('Salt Lake City', 'UT', 'Utah', MT);
const LAS_VEGAS = us('Las Vegas', 'NV', 'Nevada', PT);
const RENO = us('Reno', 'NV', 'Nevada', PT);
const ALBUQUERQUE = us('Albuquerque', 'NM', 'New Mexico', MT);
const OKLAHOMA_CITY = us('Oklahoma City', 'OK', 'Oklahoma', CT);
const TULSA = us('Tulsa', 'OK', 'Oklahoma', CT);
const NORMAN = us('Norman', 'OK', 'Oklahoma', CT);
const OMAHA = us('Omaha', 'NE', 'Nebraska', CT);
const LINCOLN = us('Lincoln', 'NE', 'Nebraska', CT);
const LOUISVILLE = us('Louisville', 'KY', 'Kentucky', 'America/Kentucky/Louisville');
const LEXINGTON = us('Lexington', 'KY', 'Kentucky', ET);
const BIRMINGHAM = us('Birmingham', 'AL', 'Alabama', CT);
const TUSCALOOSA = us('Tuscaloosa', 'AL', 'Alabama', CT);
const HONOLULU = us('Honolulu', 'HI', 'Hawaii', 'Pacific/Honolulu');
const ANCHORAGE = us('Anchorage', 'AK', 'Alaska', 'America/Anchorage');
const BOISE = us('Boise', 'ID', 'Idaho', 'America/Boise');
const ALBANY = us('Albany', 'NY', 'New York', ET);
const BUFFALO = us('Buffalo', 'NY', 'New York', ET);
const ROCHESTER_NY = us('Rochester', 'NY', 'New York', ET);
const SYRACUSE = us('Syracuse', 'NY', 'New York', ET);
const HARTFORD = us('Hartford', 'CT', 'Connecticut', ET);
const PROVIDENCE = us('Providence', 'RI', 'Rhode Island', ET);
const NEWARK = us('Newark', 'NJ', 'New Jersey', ET);
const ATLANTIC_CITY = us('Atlantic City', 'NJ', 'New Jersey', ET);
const DOVER = us('Dover', 'DE', 'Delaware', ET);
const RICHMOND = us('Richmond', 'VA', 'Virginia', ET);
const NORFOLK = us('Norfolk', 'VA', 'Virginia', ET);
const COLUMBIA_SC = us('Columbia', 'SC', 'South Carolina', ET);
const CHARLESTON_SC = us('Charleston', 'SC', 'South Carolina', ET);
const NORTH_CHARLESTON = us('North Charleston', 'SC', 'South Carolina', ET);
const HILTON_HEAD = us('Hilton Head Island', 'SC', 'South Carolina', ET);
const LITTLE_ROCK = us('Little Rock', 'AR', 'Arkansas', CT);
const DES_MOINES = us('Des Moines', 'IA', 'Iowa', CT);
const WICHITA = us('Wichita', 'KS', 'Kansas', CT);
const FARGO = us('Fargo', 'ND', 'North Dakota', CT);
const SIOUX_FALLS = us('Sioux Falls', 'SD', 'South Dakota', CT);

// Outside the United States
const LONDON: Place = { city: 'London', state: 'ENG', stateName: 'England', country: 'GB', timeZone: 'Europe/London' };
const TORONTO: Place = { city: 'Toronto', state: 'ON', stateName: 'Ontario', country: 'CA', timeZone: 'America/Toronto' };
const CDMX: Place = { city: 'Mexico City', state: 'CDMX', stateName: 'Ciudad de México', country: 'MX', timeZone: 'America/Mexico_City' };

/**
 * Real non-team venues: theaters, concert halls, clubs, amphitheaters, opera houses,
 * arenas that are not a TEAMS home venue, raceways, tour golf courses and casino showrooms.
 */
export const VENUES: readonly VenueFact[] = [
  // ------------------------------------------------------------ New York City: Broadway
  { name: 'Gershwin Theatre', kind: 'theater', capacity: 1933, ...NYC, lat: 40.762, lng: -73.985, zip: '10019' },
  { name: 'Richard Rodgers Theatre', kind: 'theater', capacity: 1319, ...NYC, lat: 40.759, lng: -73.987, zip: '10036' },
  { name: 'Majestic Theatre', kind: 'theater', capacity: 1681, ...NYC, lat: 40.758, lng: -73.988, zip: '10036' },
  { name: 'Minskoff Theatre', kind: 'theater', capacity: 1710, ...NYC, lat: 40.758, lng: -73.986, zip: '10036' },
  { name: 'Lyceum Theatre', kind: 'theater', capacity: 922, ...NYC, lat: 40.757, lng: -73.984, zip: '10036' },
  { name: 'New Amsterdam Theatre', kind: 'theater', capacity: 1747, ...NYC, lat: 40.756, lng: -73.988, zip: '10036' },
  { name: "Eugene O'Neill Theatre", kind: 'theater', capacity: 1066, ...NYC, lat: 40.761, lng: -73.986, zip: '10019' },
  { name: 'Lunt-Fontanne Theatre', kind: 'theater', capacity: 1505, ...NYC, lat: 40.759, lng: -73.986, zip: '10036' },
  { name: 'Winter Garden Theatre', kind: 'theater', capacity: 1526, ...NYC, lat: 40.762, lng: -73.983, zip: '10019' },
  { name: 'Broadway Theatre', kind: 'theater', capacity: 1761, ...NYC, lat: 40.763, lng: -73.983, zip: '10019' },
  { name: 'Imperial Theatre', kind: 'theater', capacity: 1417, ...NYC, lat: 40.759, lng: -73.987, zip: '10036' },
  { name: 'St. James Theatre', kind: 'theater', capacity: 1709, ...NYC, lat: 40.758, lng: -73.988, zip: '10036' },
  { name: 'Shubert Theatre', kind: 'theater', capacity: 1460, ...NYC, lat: 40.758, lng: -73.987, zip: '10036' },
  { name: 'Ambassador Theatre', kind: 'theater', capacity: 1125, ...NYC, lat: 40.761, lng: -73.985, zip: '10019' },
  { name: 'August Wilson Theatre', kind: 'theater', capacity: 1222, ...NYC, lat: 40.763, lng: -73.984, zip: '10019' },
  { name: 'Al Hirschfeld Theatre', kind: 'theater', capacity: 1424, ...NYC, lat: 40.760, lng: -73.989, zip: '10036' },
  { name: 'Hudson Theatre', kind: 'theater', capacity: 970, ...NYC, lat: 40.757, lng: -73.984, zip: '10036' },
  { name: 'Nederlander Theatre', kind: 'theater', capacity: 1235, ...NYC, lat: 40.755, lng: -73.988, zip: '10036' },
  { name: 'Palace Theatre', kind: 'theater', capacity: 1648, ...NYC, lat: 40.759, lng: -73.985, zip: '10036' },
  { name: 'Neil Simon Theatre', kind: 'theater', capacity: 1467, ...NYC, lat: 40.763, lng: -73.985, zip: '10019' },
  { name: 'Marquis Theatre', kind: 'theater', capacity: 1612, ...NYC, lat: 40.759, lng: -73.986, zip: '10036' },
  { name: 'Walter Kerr Theatre', kind: 'theater', capacity: 945, ...NYC, lat: 40.760, lng: -73.986, zip: '10036' },
  // New York City: off-Broadway
  { name: 'New World Stages', kind: 'theater', capacity: 499, ...NYC, lat: 40.763, lng: -73.989, zip: '10019' },
  { name: 'Orpheum Theatre', kind: 'theater', capacity: 347, ...NYC, lat: 40.729, lng: -73.987, zip: '10003' },
  { name: 'Astor Place Theatre', kind: 'theater', capacity: 298, ...NYC, lat: 40.729, lng: -73.992, zip: '10003' },
  { name: 'The Public Theater', kind: 'theater', capacity: 299, ...NYC, lat: 40.729, lng: -73.992, zip: '10003' },
  { name: 'Lucille Lortel Theatre', kind: 'theater', capacity: 299, ...NYC, lat: 40.733, lng: -74.006, zip: '10014' },
  { name: 'Westside Theatre', kind: 'theater', capacity: 270, ...NYC, lat: 40.759, lng: -73.993, zip: '10036' },
  { name: 'Daryl Roth Theatre', kind: 'theater', capacity: 299, ...NYC, lat: 40.735, lng: -73.989, zip: '10003' },
  { name: 'Pershing Square Signature Center', kind: 'theater', capacity: 294, ...NYC, lat: 40.760, lng: -73.996, zip: '10036' },
  // New York City: Lincoln Center, concert halls and other venues
  { name: 'Metropolitan Opera House', kind: 'opera-house', capacity: 3800, ...NYC, lat: 40.773, lng: -73.984, zip: '10023' },
  { name: 'David Geffen Hall', kind: 'concert-hall', capacity: 2200, ...NYC, lat: 40.774, lng: -73.983, zip: '10023' },
  { name: 'David H. Koch Theater', kind: 'theater', capacity: 2586, ...NYC, lat: 40.772, lng: -73.983, zip: '10023' },
  { name: 'Carnegie Hall', kind: 'concert-hall', capacity: 2804, ...NYC, lat: 40.765, lng: -73.980, zip: '10019' },
  { name: 'Radio City Music Hall', kind: 'theater', capacity: 5960, ...NYC, lat: 40.760, lng: -73.980, zip: '10020' },
  { name: 'Beacon Theatre', kind: 'theater', capacity: 2894, ...NYC, lat: 40.781, lng: -73.981, zip: '10023' },
  { name: 'Apollo Theater', kind: 'theater', capacity: 1506, ...NYC, lat: 40.810, lng: -73.950, zip: '10027' },
  { name: 'Kings Theatre', kind: 'theater', capacity: 3000, ...NYC, lat: 40.646, lng: -73.958, zip: '11226' },
  { name: 'BAM Howard Gilman Opera House', kind: 'opera-house', capacity: 2109, ...NYC, lat: 40.686, lng: -73.978, zip: '11217' },
  { name: 'Arthur Ashe Stadium', kind: 'stadium', capacity: 23771, ...NYC, lat: 40.750, lng: -73.847, zip: '11368' },
  { name: 'Forest Hills Stadium', kind: 'stadium', capacity: 14000, ...NYC, lat: 40.720, lng: -73.848, zip: '11375' },
  { name: 'Terminal 5', kind: 'club', capacity: 3000, ...NYC, lat: 40.770, lng: -73.993, zip: '10019' },
  { name: 'Webster Hall', kind: 'club', capacity: 1500, ...NYC, lat: 40.732, lng: -73.989, zip: '10003' },
  { name: 'Irving Plaza', kind: 'club', capacity: 1200, ...NYC, lat: 40.735, lng: -73.988, zip: '10003' },
  { name: 'Bowery Ballroom', kind: 'club', capacity: 575, ...NYC, lat: 40.720, lng: -73.994, zip: '10002' },
  { name: 'Hammerstein Ballroom', kind: 'arena', capacity: 2500, ...NYC, lat: 40.752, lng: -73.995, zip: '10001' },
  { name: 'New Jersey Performing Arts Center', kind: 'concert-hall', capacity: 2868, ...NEWARK, lat: 40.741, lng: -74.167, zip: '07102' },

  // ------------------------------------------------------------ Los Angeles area
  { name: 'Hollywood Bowl', kind: 'amphitheater', capacity: 17500, ...LA, lat: 34.112, lng: -118.339, zip: '90068' },
  { name: 'Walt Disney Concert Hall', kind: 'concert-hall', capacity: 2265, ...LA, lat: 34.055, lng: -118.250, zip: '90012' },
  { name: 'Dorothy Chandler Pavilion', kind: 'opera-house', capacity: 3156, ...LA, lat: 34.058, lng: -118.249, zip: '90012' },
  { name: 'Hollywood Pantages Theatre', kind: 'theater', capacity: 2703, ...LA, lat: 34.102, lng: -118.325, zip: '90028' },
  { name: 'Greek Theatre', kind: 'amphitheater', capacity: 5900, ...LA, lat: 34.120, lng: -118.297, zip: '90027' },
  { name: 'The Wiltern', kind: 'theater', capacity: 1850, ...LA, lat: 34.062, lng: -118.309, zip: '90010' },
  { name: 'Hollywood Palladium', kind: 'club', capacity: 3700, ...LA, lat: 34.098, lng: -118.324, zip: '90028' },
  { name: 'Peacock Theater', kind: 'theater', capacity: 7100, ...LA, lat: 34.045, lng: -118.266, zip: '90015' },
  { name: 'Los Angeles Memorial Coliseum', kind: 'stadium', capacity: 77500, ...LA, lat: 34.014, lng: -118.288, zip: '90037' },
  { name: 'Riviera Country Club', kind: 'golf-course', capacity: 30000, ...LA, lat: 34.049, lng: -118.501, zip: '90272' },
  { name: 'Kia Forum', kind: 'arena', capacity: 17500, ...INGLEWOOD, lat: 33.958, lng: -118.342, zip: '90305' },
  { name: 'Rose Bowl', kind: 'stadium', capacity: 89702, ...PASADENA, lat: 34.161, lng: -118.168, zip: '91103' },
  { name: 'Troubadour', kind: 'club', capacity: 500, ...WEHO, lat: 34.082, lng: -118.389, zip: '90069' },
  { name: 'Terrace Theater', kind: 'theater', capacity: 3051, ...LONG_BEACH, lat: 33.764, lng: -118.189, zip: '90802' },
  { name: 'Long Beach Arena', kind: 'arena', capacity: 13500, ...LONG_BEACH, lat: 33.762, lng: -118.188, zip: '90802' },
  { name: 'Segerstrom Center for the Arts', kind: 'theater', capacity: 3000, ...COSTA_MESA, lat: 33.691, lng: -117.884, zip: '92626' },
  { name: 'Indian Wells Tennis Garden', kind: 'stadium', capacity: 16100, ...INDIAN_WELLS, lat: 33.724, lng: -116.305, zip: '92210' },

  // ------------------------------------------------------------ San Francisco Bay Area and Central Valley
  { name: 'War Memorial Opera House', kind: 'opera-house', capacity: 3146, ...SF, lat: 37.778, lng: -122.421, zip: '94102' },
  { name: 'Davies Symphony Hall', kind: 'concert-hall', capacity: 2743, ...SF, lat: 37.777, lng: -122.421, zip: '94102' },
  { name: 'Orpheum Theatre', kind: 'theater', capacity: 2203, ...SF, lat: 37.779, lng: -122.415, zip: '94102' },
  { name: 'Curran Theatre', kind: 'theater', capacity: 1667, ...SF, lat: 37.787, lng: -122.411, zip: '94102' },
  { name: 'Golden Gate Theatre', kind: 'theater', capacity: 2297, ...SF, lat: 37.782, lng: -122.411, zip: '94102' },
  { name: 'The Fillmore', kind: 'club', capacity: 1150, ...SF, lat: 37.784, lng: -122.433, zip: '94115' },
  { name: 'The Warfield', kind: 'theater', capacity: 2250, ...SF, lat: 37.783, lng: -122.410, zip: '94102' },
  { name: 'Bill Graham Civic Auditorium', kind: 'arena', capacity: 8500, ...SF, lat: 37.778, lng: -122.417, zip: '94102' },
  { name: 'Fox Theater', kind: 'theater', capacity: 2800, ...OAKLAND, lat: 37.808, lng: -122.270, zip: '94612' },
  { name: 'Paramount Theatre', kind: 'theater', capacity: 3040, ...OAKLAND, lat: 37.810, lng: -122.268, zip: '94612' },
  { name: 'Oakland Arena', kind: 'arena', capacity: 19596, ...OAKLAND, lat: 37.750, lng: -122.203, zip: '94621' },
  { name: 'Hearst Greek Theatre', kind: 'amphitheater', capacity: 8500, ...BERKELEY, lat: 37.874, lng: -122.255, zip: '94720' },
  { name: 'Shoreline Amphitheatre', kind: 'amphitheater', capacity: 22500, ...MOUNTAIN_VIEW, lat: 37.427, lng: -122.081, zip: '94043' },
  { name: 'San Jose Center for the Performing Arts', kind: 'theater', capacity: 2677, ...SAN_JOSE, lat: 37.330, lng: -121.891, zip: '95113' },
  { name: 'SAFE Credit Union Performing Arts Center', kind: 'theater', capacity: 2200, ...SACRAMENTO, lat: 38.579, lng: -121.488, zip: '95814' },

  // ------------------------------------------------------------ San Diego
  { name: 'San Diego Civic Theatre', kind: 'theater', capacity: 2967, ...SAN_DIEGO, lat: 32.717, lng: -117.162, zip: '92101' },
  { name: 'Balboa Theatre', kind: 'theater', capacity: 1339, ...SAN_DIEGO, lat: 32.714, lng: -117.161, zip: '92101' },
  { name: 'The Rady Shell at Jacobs Park', kind: 'amphitheater', capacity: 10000, ...SAN_DIEGO, lat: 32.706, lng: -117.166, zip: '92101' },
  { name: 'Pechanga Arena', kind: 'arena', capacity: 16100, ...SAN_DIEGO, lat: 32.755, lng: -117.212, zip: '92110' },
  { name: 'The Old Globe', kind: 'theater', capacity: 580, ...SAN_DIEGO, lat: 32.732, lng: -117.151, zip: '92101' },
  { name: 'Torrey Pines Golf Course', kind: 'golf-course', capacity: 35000, ...SAN_DIEGO, lat: 32.900, lng: -117.252, zip: '92037' },

  // ------------------------------------------------------------ Chicago
  { name: 'Chicago Theatre', kind: 'theater', capacity: 3600, ...CHICAGO, lat: 41.886, lng: -87.627, zip: '60601' },
  { name: 'Auditorium Theatre', kind: 'theater', capacity: 3875, ...CHICAGO, lat: 41.876, lng: -87.625, zip: '60605' },
  { name: 'Lyric Opera House', kind: 'opera-house', capacity: 3563, ...CHICAGO, lat: 41.883, lng: -87.637, zip: '60606' },
  { name: 'Symphony Center', kind: 'concert-hall', capacity: 2522, ...CHICAGO, lat: 41.879, lng: -87.625, zip: '60604' },
  { name: 'CIBC Theatre', kind: 'theater', capacity: 1800, ...CHICAGO, lat: 41.881, lng: -87.629, zip: '60603' },
  { name: 'James M. Nederlander Theatre', kind: 'theater', capacity: 2253, ...CHICAGO, lat: 41.885, lng: -87.629, zip: '60601' },
  { name: 'Cadillac Palace Theatre', kind: 'theater', capacity: 2344, ...CHICAGO, lat: 41.884, lng: -87.634, zip: '60601' },
  { name: 'Aragon Ballroom', kind: 'club', capacity: 4500, ...CHICAGO, lat: 41.969, lng: -87.658, zip: '60640' },
  { name: 'Metro', kind: 'club', capacity: 1150, ...CHICAGO, lat: 41.950, lng: -87.659, zip: '60613' },
  { name: 'Wintrust Arena', kind: 'arena', capacity: 10387, ...CHICAGO, lat: 41.854, lng: -87.622, zip: '60616' },
  { name: 'Allstate Arena', kind: 'arena', capacity: 18500, ...ROSEMONT, lat: 42.005, lng: -87.888, zip: '60018' },

  // ------------------------------------------------------------ Boston
  { name: 'Symphony Hall', kind: 'concert-hall', capacity: 2625, ...BOSTON, lat: 42.343, lng: -71.086, zip: '02115' },
  { name: 'Wang Theatre', kind: 'theater', capacity: 3500, ...BOSTON, lat: 42.350, lng: -71.065, zip: '02116' },
  { name: 'Citizens Opera House', kind: 'opera-house', capacity: 2677, ...BOSTON, lat: 42.354, lng: -71.062, zip: '02111' },
  { name: 'Emerson Colonial Theatre', kind: 'theater', capacity: 1700, ...BOSTON, lat: 42.352, lng: -71.065, zip: '02116' },
  { name: 'House of Blues Boston', kind: 'club', capacity: 2425, ...BOSTON, lat: 42.347, lng: -71.095, zip: '02215' },
  { name: 'MGM Music Hall at Fenway', kind: 'concert-hall', capacity: 5009, ...BOSTON, lat: 42.347, lng: -71.095, zip: '02215' },
  { name: 'Agganis Arena', kind: 'arena', capacity: 7200, ...BOSTON, lat: 42.352, lng: -71.118, zip: '02215' },

  // ------------------------------------------------------------ Philadelphia
  { name: 'Academy of Music', kind: 'opera-house', capacity: 2509, ...PHILADELPHIA, lat: 39.948, lng: -75.165, zip: '19102' },
  { name: 'Marian Anderson Hall', kind: 'concert-hall', capacity: 2500, ...PHILADELPHIA, lat: 39.947, lng: -75.165, zip: '19102' },
  { name: 'Miller Theater', kind: 'theater', capacity: 1870, ...PHILADELPHIA, lat: 39.947, lng: -75.164, zip: '19102' },
  { name: 'The Met Philadelphia', kind: 'theater', capacity: 3500, ...PHILADELPHIA, lat: 39.969, lng: -75.161, zip: '19130' },
  { name: 'The Fillmore Philadelphia', kind: 'club', capacity: 2500, ...PHILADELPHIA, lat: 39.966, lng: -75.136, zip: '19123' },
  { name: 'Liacouras Center', kind: 'arena', capacity: 10200, ...PHILADELPHIA, lat: 39.980, lng: -75.158, zip: '19121' },
  { name: 'Mann Center for the Performing Arts', kind: 'amphitheater', capacity: 14000, ...PHILADELPHIA, lat: 39.982, lng: -75.216, zip: '19131' },
  { name: '2300 Arena', kind: 'arena', capacity: 1300, ...PHILADELPHIA, lat: 39.920, lng: -75.149, zip: '19148' },

  // ------------------------------------------------------------ Washington, D.C. area
  { name: 'Warner Theatre', kind: 'theater', capacity: 1847, ...DC, lat: 38.896, lng: -77.029, zip: '20004' },
  { name: 'National Theatre', kind: 'theater', capacity: 1676, ...DC, lat: 38.897, lng: -77.030, zip: '20004' },
  { name: "Ford's Theatre", kind: 'theater', capacity: 661, ...DC, lat: 38.897, lng: -77.026, zip: '20004' },
  { name: 'Lincoln Theatre', kind: 'theater', capacity: 1225, ...DC, lat: 38.917, lng: -77.029, zip: '20009' },
  { name: 'DAR Constitution Hall', kind: 'concert-hall', capacity: 3702, ...DC, lat: 38.893, lng: -77.041, zip: '20006' },
  { name: '9:30 Club', kind: 'club', capacity: 1200, ...DC, lat: 38.918, lng: -77.024, zip: '20001' },
  { name: 'The Anthem', kind: 'club', capacity: 6000, ...DC, lat: 38.880, lng: -77.026, zip: '20024' },
  { name: 'Merriweather Post Pavilion', kind: 'amphitheater', capacity: 19319, ...COLUMBIA_MD, lat: 39.209, lng: -76.862, zip: '21044' },

  // ------------------------------------------------------------ Baltimore
  { name: 'Hippodrome Theatre', kind: 'theater', capacity: 2286, ...BALTIMORE, lat: 39.290, lng: -76.621, zip: '21201' },
  { name: 'Joseph Meyerhoff Symphony Hall', kind: 'concert-hall', capacity: 2443, ...BALTIMORE, lat: 39.304, lng: -76.619, zip: '21201' },
  { name: 'Lyric Baltimore', kind: 'theater', capacity: 2564, ...BALTIMORE, lat: 39.305, lng: -76.618, zip: '21201' },
  { name: 'CFG Bank Arena', kind: 'arena', capacity: 14000, ...BALTIMORE, lat: 39.289, lng: -76.619, zip: '21201' },

  // ------------------------------------------------------------ Atlanta and Georgia
  { name: 'Fox Theatre', kind: 'theater', capacity: 4665, ...ATLANTA, lat: 33.773, lng: -84.386, zip: '30308' },
  { name: 'The Tabernacle', kind: 'club', capacity: 2600, ...ATLANTA, lat: 33.759, lng: -84.392, zip: '30303' },
  { name: 'Coca-Cola Roxy', kind: 'club', capacity: 3600, ...ATLANTA, lat: 33.890, lng: -84.468, zip: '30339' },
  { name: 'Atlanta Symphony Hall', kind: 'concert-hall', capacity: 1762, ...ATLANTA, lat: 33.790, lng: -84.385, zip: '30309' },
  { name: 'Cobb Energy Performing Arts Centre', kind: 'opera-house', capacity: 2750, ...ATLANTA, lat: 33.883, lng: -84.467, zip: '30339' },
  { name: 'East Lake Golf Club', kind: 'golf-course', capacity: 25000, ...ATLANTA, lat: 33.743, lng: -84.303, zip: '30317' },
  { name: 'Augusta National Golf Club', kind: 'golf-course', capacity: 40000, ...AUGUSTA, lat: 33.503, lng: -82.020, zip: '30904' },
  { name: 'Sanford Stadium', kind: 'stadium', capacity: 92746, ...ATHENS, lat: 33.950, lng: -83.373, zip: '30602' },
  { name: 'Georgia Theatre', kind: 'club', capacity: 1000, ...ATHENS, lat: 33.959, lng: -83.377, zip: '30601' },
  { name: 'Johnny Mercer Theatre', kind: 'theater', capacity: 2566, ...SAVANNAH, lat: 32.077, lng: -81.097, zip: '31401' },

  // ------------------------------------------------------------ Dallas–Fort Worth
  { name: 'Winspear Opera House', kind: 'opera-house', capacity: 2200, ...DALLAS, lat: 32.790, lng: -96.797, zip: '75201' },
  { name: 'Morton H. Meyerson Symphony Center', kind: 'concert-hall', capacity: 2062, ...DALLAS, lat: 32.790, lng: -96.799, zip: '75201' },
  { name: 'Majestic Theatre', kind: 'theater', capacity: 1704, ...DALLAS, lat: 32.782, lng: -96.796, zip: '75201' },
  { name: 'Music Hall at Fair Park', kind: 'theater', capacity: 3420, ...DALLAS, lat: 32.779, lng: -96.766, zip: '75210' },
  { name: 'Cotton Bowl', kind: 'stadium', capacity: 92100, ...DALLAS, lat: 32.780, lng: -96.760, zip: '75210' },
  { name: 'Bass Performance Hall', kind: 'concert-hall', capacity: 2056, ...FORT_WORTH, lat: 32.752, lng: -97.331, zip: '76102' },
  { name: 'Dickies Arena', kind: 'arena', capacity: 14000, ...FORT_WORTH, lat: 32.743, lng: -97.368, zip: '76107' },
  { name: 'Texas Motor Speedway', kind: 'raceway', capacity: 135000, ...FORT_WORTH, lat: 33.037, lng: -97.283, zip: '76177' },

  // ------------------------------------------------------------ Houston
  { name: 'Wortham Theater Center', kind: 'opera-house', capacity: 2405, ...HOUSTON, lat: 29.762, lng: -95.366, zip: '77002' },
  { name: 'Jones Hall', kind: 'concert-hall', capacity: 2912, ...HOUSTON, lat: 29.761, lng: -95.365, zip: '77002' },
  { name: 'Hobby Center for the Performing Arts', kind: 'theater', capacity: 2650, ...HOUSTON, lat: 29.762, lng: -95.370, zip: '77002' },
  { name: 'Alley Theatre', kind: 'theater', capacity: 774, ...HOUSTON, lat: 29.763, lng: -95.364, zip: '77002' },
  { name: 'Memorial Park Golf Course', kind: 'golf-course', capacity: 20000, ...HOUSTON, lat: 29.765, lng: -95.438, zip: '77007' },
  { name: 'Cynthia Woods Mitchell Pavilion', kind: 'amphitheater', capacity: 16500, ...WOODLANDS, lat: 30.162, lng: -95.466, zip: '77380' },

  // ------------------------------------------------------------ San Antonio and Austin
  { name: 'Majestic Theatre', kind: 'theater', capacity: 2264, ...SAN_ANTONIO, lat: 29.426, lng: -98.491, zip: '78205' },
  { name: 'Tobin Center for the Performing Arts', kind: 'concert-hall', capacity: 1738, ...SAN_ANTONIO, lat: 29.431, lng: -98.487, zip: '78205' },
  { name: 'Alamodome', kind: 'stadium', capacity: 64000, ...SAN_ANTONIO, lat: 29.417, lng: -98.479, zip: '78203' },
  { name: 'Moody Center', kind: 'arena', capacity: 15000, ...AUSTIN, lat: 30.282, lng: -97.732, zip: '78712' },
  { name: 'ACL Live at the Moody Theater', kind: 'theater', capacity: 2750, ...AUSTIN, lat: 30.265, lng: -97.747, zip: '78701' },
  { name: 'Bass Concert Hall', kind: 'concert-hall', capacity: 2900, ...AUSTIN, lat: 30.286, lng: -97.731, zip: '78712' },
  { name: 'Paramount Theatre', kind: 'theater', capacity: 1270, ...AUSTIN, lat: 30.269, lng: -97.743, zip: '78701' },
  { name: "Stubb's Waller Creek Amphitheater", kind: 'amphitheater', capacity: 2200, ...AUSTIN, lat: 30.268, lng: -97.736, zip: '78701' },
  { name: 'Darrell K Royal–Texas Memorial Stadium', kind: 'stadium', capacity: 100119, ...AUSTIN, lat: 30.284, lng: -97.733, zip: '78712' },
  { name: 'Circuit of the Americas', kind: 'raceway', capacity: 120000, ...AUSTIN, lat: 30.133, lng: -97.641, zip: '78617' },
  { name: 'Plaza Theatre', kind: 'theater', capacity: 2050, ...EL_PASO, lat: 31.759, lng: -106.490, zip: '79901' },
  { name: 'Don Haskins Center', kind: 'arena', capacity: 12222, ...EL_PASO, lat: 31.772, lng: -106.509, zip: '79968' },

  // ------------------------------------------------------------ Arizona
  { name: 'Arizona Financial Theatre', kind: 'theater', capacity: 5000, ...PHOENIX, lat: 33.448, lng: -112.078, zip: '85003' },
  { name: 'Orpheum Theatre', kind: 'theater', capacity: 1364, ...PHOENIX, lat: 33.449, lng: -112.077, zip: '85003' },
  { name: 'Symphony Hall', kind: 'concert-hall', capacity: 2312, ...PHOENIX, lat: 33.449, lng: -112.070, zip: '85004' },
  { name: 'ASU Gammage', kind: 'theater', capacity: 3000, ...TEMPE, lat: 33.417, lng: -111.937, zip: '85281' },
  { name: 'Desert Diamond Arena', kind: 'arena', capacity: 17125, ...GLENDALE_AZ, lat: 33.532, lng: -112.261, zip: '85305' },
  { name: 'Phoenix Raceway', kind: 'raceway', capacity: 42000, ...AVONDALE, lat: 33.375, lng: -112.311, zip: '85323' },
  { name: 'TPC Scottsdale', kind: 'golf-course', capacity: 50000, ...SCOTTSDALE, lat: 33.641, lng: -111.911, zip: '85255' },
  { name: 'Fox Tucson Theatre', kind: 'theater', capacity: 1164, ...TUCSON, lat: 32.222, lng: -110.972, zip: '85701' },
  { name: 'Tucson Music Hall', kind: 'concert-hall', capacity: 2277, ...TUCSON, lat: 32.219, lng: -110.974, zip: '85701' },

  // ------------------------------------------------------------ Pacific Northwest
  { name: 'Paramount Theatre', kind: 'theater', capacity: 2807, ...SEATTLE, lat: 47.613, lng: -122.332, zip: '98101' },
  { name: 'Benaroya Hall', kind: 'concert-hall', capacity: 2500, ...SEATTLE, lat: 47.608, lng: -122.337, zip: '98101' },
  { name: 'McCaw Hall', kind: 'opera-house', capacity: 2900, ...SEATTLE, lat: 47.624, lng: -122.350, zip: '98109' },
  { name: '5th Avenue Theatre', kind: 'theater', capacity: 2130, ...SEATTLE, lat: 47.609, lng: -122.334, zip: '98101' },
  { name: 'Moore Theatre', kind: 'theater', capacity: 1800, ...SEATTLE, lat: 47.612, lng: -122.341, zip: '98101' },
  { name: 'The Showbox', kind: 'club', capacity: 1100, ...SEATTLE, lat: 47.609, lng: -122.340, zip: '98101' },
  { name: 'Spokane Arena', kind: 'arena', capacity: 12638, ...SPOKANE, lat: 47.666, lng: -117.424, zip: '99201' },
  { name: 'First Interstate Center for the Arts', kind: 'theater', capacity: 2700, ...SPOKANE, lat: 47.663, lng: -117.417, zip: '99201' },
  { name: 'Arlene Schnitzer Concert Hall', kind: 'concert-hall', capacity: 2776, ...PORTLAND, lat: 45.517, lng: -122.681, zip: '97205' },
  { name: 'Keller Auditorium', kind: 'theater', capacity: 2992, ...PORTLAND, lat: 45.512, lng: -122.679, zip: '97201' },
  { name: 'Crystal Ballroom', kind: 'club', capacity: 1500, ...PORTLAND, lat: 45.523, lng: -122.685, zip: '97209' },
  { name: 'Veterans Memorial Coliseum', kind: 'arena', capacity: 12888, ...PORTLAND, lat: 45.532, lng: -122.669, zip: '97227' },

  // ------------------------------------------------------------ Colorado
  { name: 'Red Rocks Amphitheatre', kind: 'amphitheater', capacity: 9525, ...MORRISON, lat: 39.665, lng: -105.206, zip: '80465' },
  { name: 'Ellie Caulkins Opera House', kind: 'opera-house', capacity: 2225, ...DENVER, lat: 39.746, lng: -104.999, zip: '80202' },
  { name: 'Buell Theatre', kind: 'theater', capacity: 2839, ...DENVER, lat: 39.745, lng: -104.998, zip: '80202' },
  { name: 'Paramount Theatre', kind: 'theater', capacity: 1870, ...DENVER, lat: 39.745, lng: -104.991, zip: '80202' },
  { name: 'Fillmore Auditorium', kind: 'club', capacity: 3700, ...DENVER, lat: 39.740, lng: -104.977, zip: '80218' },
  { name: 'Mission Ballroom', kind: 'club', capacity: 3950, ...DENVER, lat: 39.778, lng: -104.972, zip: '80216' },

  // ------------------------------------------------------------ Twin Cities
  { name: 'Orpheum Theatre', kind: 'theater', capacity: 2579, ...MINNEAPOLIS, lat: 44.976, lng: -93.277, zip: '55403' },
  { name: 'State Theatre', kind: 'theater', capacity: 2181, ...MINNEAPOLIS, lat: 44.976, lng: -93.275, zip: '55402' },
  { name: 'Orchestra Hall', kind: 'concert-hall', capacity: 2089, ...MINNEAPOLIS, lat: 44.972, lng: -93.276, zip: '55403' },
  { name: 'First Avenue', kind: 'club', capacity: 1550, ...MINNEAPOLIS, lat: 44.979, lng: -93.276, zip: '55403' },
  { name: 'Guthrie Theater', kind: 'theater', capacity: 1100, ...MINNEAPOLIS, lat: 44.978, lng: -93.255, zip: '55415' },
  { name: 'The Armory', kind: 'arena', capacity: 8400, ...MINNEAPOLIS, lat: 44.975, lng: -93.262, zip: '55415' },
  { name: 'Ordway Center for the Performing Arts', kind: 'theater', capacity: 1900, ...SAINT_PAUL, lat: 44.945, lng: -93.097, zip: '55102' },

  // ------------------------------------------------------------ Michigan
  { name: 'Fox Theatre', kind: 'theater', capacity: 5048, ...DETROIT, lat: 42.338, lng: -83.053, zip: '48201' },
  { name: 'Detroit Opera House', kind: 'opera-house', capacity: 2700, ...DETROIT, lat: 42.336, lng: -83.049, zip: '48226' },
  { name: 'Orchestra Hall', kind: 'concert-hall', capacity: 2014, ...DETROIT, lat: 42.350, lng: -83.059, zip: '48201' },
  { name: 'Fisher Theatre', kind: 'theater', capacity: 2089, ...DETROIT, lat: 42.369, lng: -83.077, zip: '48202' },
  { name: 'The Fillmore Detroit', kind: 'club', capacity: 2200, ...DETROIT, lat: 42.337, lng: -83.052, zip: '48201' },
  { name: 'Michigan Stadium', kind: 'stadium', capacity: 107601, ...ANN_ARBOR, lat: 42.266, lng: -83.749, zip: '48104' },
  { name: 'Hill Auditorium', kind: 'concert-hall', capacity: 3538, ...ANN_ARBOR, lat: 42.279, lng: -83.739, zip: '48109' },
  { name: 'Van Andel Arena', kind: 'arena', capacity: 12000, ...GRAND_RAPIDS, lat: 42.962, lng: -85.671, zip: '49503' },
  { name: 'DeVos Performance Hall', kind: 'theater', capacity: 2404, ...GRAND_RAPIDS, lat: 42.967, lng: -85.672, zip: '49503' },

  // ------------------------------------------------------------ Ohio
  { name: 'KeyBank State Theatre', kind: 'theater', capacity: 3200, ...CLEVELAND, lat: 41.501, lng: -81.681, zip: '44115' },
  { name: 'Connor Palace', kind: 'theater', capacity: 2800, ...CLEVELAND, lat: 41.501, lng: -81.680, zip: '44115' },
  { name: 'Severance Music Center', kind: 'concert-hall', capacity: 2100, ...CLEVELAND, lat: 41.506, lng: -81.609, zip: '44106' },
  { name: 'House of Blues Cleveland', kind: 'club', capacity: 1200, ...CLEVELAND, lat: 41.499, lng: -81.690, zip: '44114' },
  { name: 'Blossom Music Center', kind: 'amphitheater', capacity: 19642, ...CUYAHOGA_FALLS, lat: 41.180, lng: -81.558, zip: '44223' },
  { name: 'Ohio Theatre', kind: 'theater', capacity: 2779, ...COLUMBUS, lat: 39.960, lng: -82.999, zip: '43215' },
  { name: 'Palace Theatre', kind: 'theater', capacity: 2827, ...COLUMBUS, lat: 39.962, lng: -83.002, zip: '43215' },
  { name: 'KEMBA Live!', kind: 'amphitheater', capacity: 5200, ...COLUMBUS, lat: 39.970, lng: -83.006, zip: '43215' },
  { name: 'Value City Arena', kind: 'arena', capacity: 19500, ...COLUMBUS, lat: 40.008, lng: -83.025, zip: '43210' },
  { name: 'Ohio Stadium', kind: 'stadium', capacity: 102780, ...COLUMBUS, lat: 40.002, lng: -83.020, zip: '43210' },
  { name: 'Muirfield Village Golf Club', kind: 'golf-course', capacity: 25000, ...DUBLIN_OH, lat: 40.127, lng: -83.145, zip: '43017' },
  { name: 'Music Hall', kind: 'concert-hall', capacity: 2289, ...CINCINNATI, lat: 39.110, lng: -84.519, zip: '45202' },
  { name: 'Aronoff Center for the Arts', kind: 'theater', capacity: 2719, ...CINCINNATI, lat: 39.103, lng: -84.511, zip: '45202' },
  { name: 'The Andrew J Brady Music Center', kind: 'concert-hall', capacity: 4500, ...CINCINNATI, lat: 39.098, lng: -84.503, zip: '45202' },
  { name: 'Heritage Bank Center', kind: 'arena', capacity: 17556, ...CINCINNATI, lat: 39.097, lng: -84.505, zip: '45202' },
  { name: 'Lindner Family Tennis Center', kind: 'stadium', capacity: 11400, ...MASON, lat: 39.349, lng: -84.277, zip: '45040' },

  // ------------------------------------------------------------ Pennsylvania (outside Philadelphia)
  { name: 'Benedum Center', kind: 'theater', capacity: 2800, ...PITTSBURGH, lat: 40.443, lng: -80.000, zip: '15222' },
  { name: 'Heinz Hall', kind: 'concert-hall', capacity: 2676, ...PITTSBURGH, lat: 40.442, lng: -80.001, zip: '15222' },
  { name: 'Stage AE', kind: 'amphitheater', capacity: 5550, ...PITTSBURGH, lat: 40.447, lng: -80.012, zip: '15212' },
  { name: 'Petersen Events Center', kind: 'arena', capacity: 12508, ...PITTSBURGH, lat: 40.444, lng: -79.962, zip: '15213' },
  { name: 'Beaver Stadium', kind: 'stadium', capacity: 106572, ...STATE_COLLEGE, lat: 40.812, lng: -77.856, zip: '16802' },

  // ------------------------------------------------------------ Florida
  { name: 'Adrienne Arsht Center for the Performing Arts', kind: 'opera-house', capacity: 2400, ...MIAMI, lat: 25.788, lng: -80.190, zip: '33132' },
  { name: 'The Fillmore Miami Beach', kind: 'theater', capacity: 2713, ...MIAMI_BEACH, lat: 25.792, lng: -80.133, zip: '33139' },
  { name: 'New World Center', kind: 'concert-hall', capacity: 756, ...MIAMI_BEACH, lat: 25.793, lng: -80.134, zip: '33139' },
  { name: 'Hard Rock Live', kind: 'casino-theater', capacity: 7000, ...HOLLYWOOD_FL, lat: 26.051, lng: -80.211, zip: '33314' },
  { name: 'Homestead-Miami Speedway', kind: 'raceway', capacity: 46000, ...HOMESTEAD, lat: 25.452, lng: -80.409, zip: '33035' },
  { name: 'Straz Center for the Performing Arts', kind: 'theater', capacity: 2610, ...TAMPA, lat: 27.952, lng: -82.464, zip: '33602' },
  { name: 'Yuengling Center', kind: 'arena', capacity: 10411, ...TAMPA, lat: 28.059, lng: -82.407, zip: '33620' },
  { name: 'Dr. Phillips Center for the Performing Arts', kind: 'theater', capacity: 2700, ...ORLANDO, lat: 28.538, lng: -81.377, zip: '32801' },
  { name: 'Addition Financial Arena', kind: 'arena', capacity: 10000, ...ORLANDO, lat: 28.607, lng: -81.197, zip: '32816' },
  { name: 'Camping World Stadium', kind: 'stadium', capacity: 60219, ...ORLANDO, lat: 28.539, lng: -81.403, zip: '32805' },
  { name: 'Bay Hill Club & Lodge', kind: 'golf-course', capacity: 30000, ...ORLANDO, lat: 28.460, lng: -81.508, zip: '32819' },
  { name: 'Florida Theatre', kind: 'theater', capacity: 1900, ...JACKSONVILLE, lat: 30.328, lng: -81.656, zip: '32202' },
  { name: 'VyStar Veterans Memorial Arena', kind: 'arena', capacity: 15000, ...JACKSONVILLE, lat: 30.326, lng: -81.645, zip: '32202' },
  { name: "Daily's Place", kind: 'amphitheater', capacity: 5500, ...JACKSONVILLE, lat: 30.325, lng: -81.639, zip: '32202' },
  { name: 'Daytona International Speedway', kind: 'raceway', capacity: 101500, ...DAYTONA_BEACH, lat: 29.185, lng: -81.071, zip: '32114' },
  { name: 'Doak Campbell Stadium', kind: 'stadium', capacity: 79560, ...TALLAHASSEE, lat: 30.438, lng: -84.304, zip: '32304' },
  { name: 'Ben Hill Griffin Stadium', kind: 'stadium', capacity: 88548, ...GAINESVILLE, lat: 29.650, lng: -82.349, zip: '32611' },

  // ------------------------------------------------------------ Tennessee
  { name: 'Ryman Auditorium', kind: 'theater', capacity: 2362, ...NASHVILLE, lat: 36.161, lng: -86.778, zip: '37219' },
  { name: 'Grand Ole Opry House', kind: 'theater', capacity: 4400, ...NASHVILLE, lat: 36.207, lng: -86.692, zip: '37214' },
  { name: 'Schermerhorn Symphony Center', kind: 'concert-hall', capacity: 1844, ...NASHVILLE, lat: 36.159, lng: -86.776, zip: '37201' },
  { name: 'Tennessee Performing Arts Center', kind: 'theater', capacity: 2472, ...NASHVILLE, lat: 36.166, lng: -86.783, zip: '37243' },
  { name: 'Ascend Amphitheater', kind: 'amphitheater', capacity: 6800, ...NASHVILLE, lat: 36.159, lng: -86.772, zip: '37201' },
  { name: 'Municipal Auditorium', kind: 'arena', capacity: 9700, ...NASHVILLE, lat: 36.168, lng: -86.782, zip: '37201' },
  { name: 'Orpheum Theatre', kind: 'theater', capacity: 2308, ...MEMPHIS, lat: 35.140, lng: -90.054, zip: '38103' },
  { name: 'Simmons Bank Liberty Stadium', kind: 'stadium', capacity: 58325, ...MEMPHIS, lat: 35.121, lng: -89.977, zip: '38104' },
  { name: 'Thompson-Boling Arena', kind: 'arena', capacity: 21678, ...KNOXVILLE, lat: 35.950, lng: -83.926, zip: '37996' },
  { name: 'Tennessee Theatre', kind: 'theater', capacity: 1631, ...KNOXVILLE, lat: 35.964, lng: -83.918, zip: '37902' },
  { name: 'Tivoli Theatre', kind: 'theater', capacity: 1762, ...CHATTANOOGA, lat: 35.046, lng: -85.310, zip: '37402' },
  { name: 'Bristol Motor Speedway', kind: 'raceway', capacity: 146000, ...BRISTOL, lat: 36.516, lng: -82.257, zip: '37620' },

  // ------------------------------------------------------------ Louisiana
  { name: 'Saenger Theatre', kind: 'theater', capacity: 2600, ...NEW_ORLEANS, lat: 29.956, lng: -90.070, zip: '70112' },
  { name: 'Orpheum Theater', kind: 'concert-hall', capacity: 1500, ...NEW_ORLEANS, lat: 29.955, lng: -90.072, zip: '70112' },
  { name: 'Mahalia Jackson Theater', kind: 'theater', capacity: 2100, ...NEW_ORLEANS, lat: 29.962, lng: -90.069, zip: '70116' },
  { name: "Tipitina's", kind: 'club', capacity: 1000, ...NEW_ORLEANS, lat: 29.917, lng: -90.104, zip: '70115' },
  { name: 'House of Blues New Orleans', kind: 'club', capacity: 840, ...NEW_ORLEANS, lat: 29.954, lng: -90.066, zip: '70130' },
  { name: 'Tiger Stadium', kind: 'stadium', capacity: 102321, ...BATON_ROUGE, lat: 30.412, lng: -91.184, zip: '70803' },

  // ------------------------------------------------------------ Missouri and Kansas
  { name: 'Kauffman Center for the Performing Arts', kind: 'concert-hall', capacity: 1800, ...KANSAS_CITY_MO, lat: 39.094, lng: -94.587, zip: '64108' },
  { name: 'T-Mobile Center', kind: 'arena', capacity: 18972, ...KANSAS_CITY_MO, lat: 39.097, lng: -94.580, zip: '64106' },
  { name: 'Midland Theatre', kind: 'theater', capacity: 2800, ...KANSAS_CITY_MO, lat: 39.099, lng: -94.584, zip: '64105' },
  { name: 'Kansas Speedway', kind: 'raceway', capacity: 48000, ...KANSAS_CITY_KS, lat: 39.116, lng: -94.831, zip: '66111' },
  { name: 'Fabulous Fox Theatre', kind: 'theater', capacity: 4500, ...ST_LOUIS, lat: 38.640, lng: -90.232, zip: '63103' },
  { name: 'Powell Hall', kind: 'concert-hall', capacity: 2683, ...ST_LOUIS, lat: 38.641, lng: -90.232, zip: '63103' },
  { name: 'Stifel Theatre', kind: 'theater', capacity: 3100, ...ST_LOUIS, lat: 38.628, lng: -90.200, zip: '63103' },
  { name: 'The Muny', kind: 'amphitheater', capacity: 11000, ...ST_LOUIS, lat: 38.641, lng: -90.289, zip: '63112' },
  { name: 'Chaifetz Arena', kind: 'arena', capacity: 10600, ...ST_LOUIS, lat: 38.631, lng: -90.228, zip: '63103' },
  { name: 'INTRUST Bank Arena', kind: 'arena', capacity: 15004, ...WICHITA, lat: 37.682, lng: -97.331, zip: '67202' },

  // ------------------------------------------------------------ Indiana
  { name: 'Indianapolis Motor Speedway', kind: 'raceway', capacity: 257325, ...INDIANAPOLIS, lat: 39.795, lng: -86.235, zip: '46222' },
  { name: 'Old National Centre', kind: 'theater', capacity: 2500, ...INDIANAPOLIS, lat: 39.774, lng: -86.152, zip: '46204' },
  { name: 'Hilbert Circle Theatre', kind: 'concert-hall', capacity: 1660, ...INDIANAPOLIS, lat: 39.769, lng: -86.157, zip: '46204' },
  { name: 'Hinkle Fieldhouse', kind: 'arena', capacity: 9100, ...INDIANAPOLIS, lat: 39.843, lng: -86.167, zip: '46208' },
  { name: 'Notre Dame Stadium', kind: 'stadium', capacity: 77622, ...SOUTH_BEND, lat: 41.698, lng: -86.234, zip: '46556' },

  // ------------------------------------------------------------ Wisconsin
  { name: 'Riverside Theater', kind: 'theater', capacity: 2450, ...MILWAUKEE, lat: 43.039, lng: -87.911, zip: '53203' },
  { name: 'Pabst Theater', kind: 'theater', capacity: 1300, ...MILWAUKEE, lat: 43.042, lng: -87.910, zip: '53202' },
  { name: 'Marcus Performing Arts Center', kind: 'theater', capacity: 2305, ...MILWAUKEE, lat: 43.044, lng: -87.909, zip: '53202' },
  { name: 'Bradley Symphony Center', kind: 'concert-hall', capacity: 1750, ...MILWAUKEE, lat: 43.039, lng: -87.913, zip: '53203' },
  { name: 'UW–Milwaukee Panther Arena', kind: 'arena', capacity: 12700, ...MILWAUKEE, lat: 43.042, lng: -87.917, zip: '53203' },
  { name: 'Kohl Center', kind: 'arena', capacity: 17287, ...MADISON, lat: 43.070, lng: -89.397, zip: '53715' },
  { name: 'Overture Center for the Arts', kind: 'theater', capacity: 2251, ...MADISON, lat: 43.075, lng: -89.388, zip: '53703' },
  { name: 'Camp Randall Stadium', kind: 'stadium', capacity: 75822, ...MADISON, lat: 43.070, lng: -89.413, zip: '53711' },

  // ------------------------------------------------------------ The Carolinas
  { name: 'Belk Theater', kind: 'theater', capacity: 2097, ...CHARLOTTE, lat: 35.228, lng: -80.842, zip: '28202' },
  { name: 'Ovens Auditorium', kind: 'theater', capacity: 2455, ...CHARLOTTE, lat: 35.204, lng: -80.794, zip: '28205' },
  { name: 'Bojangles Coliseum', kind: 'arena', capacity: 8600, ...CHARLOTTE, lat: 35.205, lng: -80.796, zip: '28205' },
  { name: 'Charlotte Motor Speedway', kind: 'raceway', capacity: 95000, ...CONCORD_NC, lat: 35.352, lng: -80.683, zip: '28027' },
  { name: 'Red Hat Amphitheater', kind: 'amphitheater', capacity: 5990, ...RALEIGH, lat: 35.774, lng: -78.642, zip: '27601' },
  { name: 'Martin Marietta Center for the Performing Arts', kind: 'concert-hall', capacity: 2277, ...RALEIGH, lat: 35.772, lng: -78.639, zip: '27601' },
  { name: 'Durham Performing Arts Center', kind: 'theater', capacity: 2712, ...DURHAM, lat: 35.993, lng: -78.903, zip: '27701' },
  { name: 'Cameron Indoor Stadium', kind: 'arena', capacity: 9314, ...DURHAM, lat: 35.998, lng: -78.943, zip: '27708' },
  { name: 'Greensboro Coliseum', kind: 'arena', capacity: 22000, ...GREENSBORO, lat: 36.059, lng: -79.826, zip: '27403' },
  { name: 'Tanger Center for the Performing Arts', kind: 'theater', capacity: 3000, ...GREENSBORO, lat: 36.075, lng: -79.790, zip: '27401' },
  { name: 'Colonial Life Arena', kind: 'arena', capacity: 18000, ...COLUMBIA_SC, lat: 33.994, lng: -81.039, zip: '29201' },
  { name: 'Charleston Gaillard Center', kind: 'concert-hall', capacity: 1800, ...CHARLESTON_SC, lat: 32.786, lng: -79.935, zip: '29401' },
  { name: 'Credit One Stadium', kind: 'stadium', capacity: 11000, ...CHARLESTON_SC, lat: 32.864, lng: -79.909, zip: '29492' },
  { name: 'North Charleston Coliseum', kind: 'arena', capacity: 13000, ...NORTH_CHARLESTON, lat: 32.866, lng: -80.020, zip: '29418' },
  { name: 'Harbour Town Golf Links', kind: 'golf-course', capacity: 20000, ...HILTON_HEAD, lat: 32.137, lng: -80.812, zip: '29928' },

  // ------------------------------------------------------------ Mountain West and Southwest
  { name: 'Eccles Theater', kind: 'theater', capacity: 2468, ...SALT_LAKE_CITY, lat: 40.767, lng: -111.891, zip: '84111' },
  { name: 'Abravanel Hall', kind: 'concert-hall', capacity: 2768, ...SALT_LAKE_CITY, lat: 40.769, lng: -111.895, zip: '84101' },
  { name: 'Rice-Eccles Stadium', kind: 'stadium', capacity: 51444, ...SALT_LAKE_CITY, lat: 40.760, lng: -111.849, zip: '84112' },
  { name: 'Popejoy Hall', kind: 'theater', capacity: 1986, ...ALBUQUERQUE, lat: 35.085, lng: -106.619, zip: '87106' },
  { name: 'KiMo Theatre', kind: 'theater', capacity: 650, ...ALBUQUERQUE, lat: 35.085, lng: -106.652, zip: '87102' },
  { name: 'Morrison Center for the Performing Arts', kind: 'theater', capacity: 2037, ...BOISE, lat: 43.602, lng: -116.204, zip: '83725' },
  { name: 'ExtraMile Arena', kind: 'arena', capacity: 12480, ...BOISE, lat: 43.599, lng: -116.197, zip: '83725' },

  // ------------------------------------------------------------ Las Vegas and Reno
  { name: 'O Theatre at Bellagio', kind: 'casino-theater', capacity: 1800, ...LAS_VEGAS, lat: 36.113, lng: -115.177, zip: '89109' },
  { name: 'KÀ Theatre at MGM Grand', kind: 'casino-theater', capacity: 1950, ...LAS_VEGAS, lat: 36.102, lng: -115.170, zip: '89109' },
  { name: 'Michael Jackson ONE Theatre at Mandalay Bay', kind: 'casino-theater', capacity: 1800, ...LAS_VEGAS, lat: 36.092, lng: -115.176, zip: '89119' },
  { name: 'Mystère Theatre at Treasure Island', kind: 'casino-theater', capacity: 1600, ...LAS_VEGAS, lat: 36.125, lng: -115.172, zip: '89109' },
  { name: 'The Colosseum at Caesars Palace', kind: 'casino-theater', capacity: 4300, ...LAS_VEGAS, lat: 36.117, lng: -115.176, zip: '89109' },
  { name: 'Dolby Live at Park MGM', kind: 'casino-theater', capacity: 5200, ...LAS_VEGAS, lat: 36.103, lng: -115.177, zip: '89109' },
  { name: 'Encore Theater at Wynn Las Vegas', kind: 'casino-theater', capacity: 1480, ...LAS_VEGAS, lat: 36.129, lng: -115.165, zip: '89109' },
  { name: 'Resorts World Theatre', kind: 'casino-theater', capacity: 5000, ...LAS_VEGAS, lat: 36.134, lng: -115.166, zip: '89109' },
  { name: 'The Pearl at Palms', kind: 'casino-theater', capacity: 2500, ...LAS_VEGAS, lat: 36.115, lng: -115.196, zip: '89103' },
  { name: 'Sphere', kind: 'arena', capacity: 17600, ...LAS_VEGAS, lat: 36.121, lng: -115.162, zip: '89169' },
  { name: 'MGM Grand Garden Arena', kind: 'arena', capacity: 16800, ...LAS_VEGAS, lat: 36.103, lng: -115.169, zip: '89109' },
  { name: 'Michelob Ultra Arena', kind: 'arena', capacity: 12000, ...LAS_VEGAS, lat: 36.090, lng: -115.177, zip: '89119' },
  { name: 'Thomas & Mack Center', kind: 'arena', capacity: 18000, ...LAS_VEGAS, lat: 36.105, lng: -115.145, zip: '89154' },
  { name: 'House of Blues Las Vegas', kind: 'club', capacity: 1800, ...LAS_VEGAS, lat: 36.092, lng: -115.176, zip: '89119' },
  { name: 'Brooklyn Bowl Las Vegas', kind: 'club', capacity: 2000, ...LAS_VEGAS, lat: 36.118, lng: -115.170, zip: '89109' },
  { name: 'Las Vegas Motor Speedway', kind: 'raceway', capacity: 80000, ...LAS_VEGAS, lat: 36.272, lng: -115.011, zip: '89115' },
  { name: 'Reno Events Center', kind: 'arena', capacity: 7000, ...RENO, lat: 39.531, lng: -119.812, zip: '89501' },
  { name: 'Grand Theatre at Grand Sierra Resort', kind: 'casino-theater', capacity: 3000, ...RENO, lat: 39.525, lng: -119.779, zip: '89595' },

  // ------------------------------------------------------------ Great Plains and Midwest
  { name: 'Civic Center Music Hall', kind: 'concert-hall', capacity: 2477, ...OKLAHOMA_CITY, lat: 35.469, lng: -97.520, zip: '73102' },
  { name: 'BOK Center', kind: 'arena', capacity: 19199, ...TULSA, lat: 36.153, lng: -95.996, zip: '74103' },
  { name: 'Tulsa Performing Arts Center', kind: 'theater', capacity: 2365, ...TULSA, lat: 36.155, lng: -95.991, zip: '74103' },
  { name: "Cain's Ballroom", kind: 'club', capacity: 1700, ...TULSA, lat: 36.160, lng: -95.993, zip: '74103' },
  { name: 'Gaylord Family Oklahoma Memorial Stadium', kind: 'stadium', capacity: 80126, ...NORMAN, lat: 35.206, lng: -97.442, zip: '73019' },
  { name: 'CHI Health Center Omaha', kind: 'arena', capacity: 18975, ...OMAHA, lat: 41.263, lng: -95.928, zip: '68102' },
  { name: 'Orpheum Theater', kind: 'theater', capacity: 2600, ...OMAHA, lat: 41.257, lng: -95.937, zip: '68102' },
  { name: 'Charles Schwab Field Omaha', kind: 'stadium', capacity: 24000, ...OMAHA, lat: 41.267, lng: -95.932, zip: '68102' },
  { name: 'Pinnacle Bank Arena', kind: 'arena', capacity: 15500, ...LINCOLN, lat: 40.817, lng: -96.712, zip: '68508' },
  { name: 'Memorial Stadium', kind: 'stadium', capacity: 85458, ...LINCOLN, lat: 40.821, lng: -96.706, zip: '68588' },
  { name: 'Wells Fargo Arena', kind: 'arena', capacity: 16980, ...DES_MOINES, lat: 41.592, lng: -93.622, zip: '50309' },
  { name: 'Fargodome', kind: 'stadium', capacity: 19000, ...FARGO, lat: 46.901, lng: -96.800, zip: '58102' },
  { name: 'Denny Sanford Premier Center', kind: 'arena', capacity: 12000, ...SIOUX_FALLS, lat: 43.558, lng: -96.743, zip: '57104' },
  { name: 'Robinson Center', kind: 'concert-hall', capacity: 2200, ...LITTLE_ROCK, lat: 34.749, lng: -92.273, zip: '72201' },

  // ------------------------------------------------------------ Kentucky and Alabama
  { name: 'KFC Yum! Center', kind: 'arena', capacity: 22090, ...LOUISVILLE, lat: 38.258, lng: -85.754, zip: '40202' },
  { name: 'Louisville Palace', kind: 'theater', capacity: 2700, ...LOUISVILLE, lat: 38.248, lng: -85.758, zip: '40202' },
  { name: 'Rupp Arena', kind: 'arena', capacity: 20545, ...LEXINGTON, lat: 38.049, lng: -84.505, zip: '40507' },
  { name: 'Alabama Theatre', kind: 'theater', capacity: 2500, ...BIRMINGHAM, lat: 33.515, lng: -86.809, zip: '35203' },
  { name: 'Bryant–Denny Stadium', kind: 'stadium', capacity: 100077, ...TUSCALOOSA, lat: 33.208, lng: -87.550, zip: '35487' },

  // ------------------------------------------------------------ Northeast (outside NYC, Boston, Philadelphia)
  { name: 'MVP Arena', kind: 'arena', capacity: 15229, ...ALBANY, lat: 42.649, lng: -73.755, zip: '12207' },
  { name: 'Palace Theatre', kind: 'theater', capacity: 2844, ...ALBANY, lat: 42.655, lng: -73.750, zip: '12207' },
  { name: "Shea's Performing Arts Center", kind: 'theater', capacity: 3019, ...BUFFALO, lat: 42.891, lng: -78.873, zip: '14202' },
  { name: 'Kleinhans Music Hall', kind: 'concert-hall', capacity: 2400, ...BUFFALO, lat: 42.901, lng: -78.885, zip: '14201' },
  { name: 'Kodak Hall at Eastman Theatre', kind: 'concert-hall', capacity: 2326, ...ROCHESTER_NY, lat: 43.158, lng: -77.602, zip: '14604' },
  { name: 'Blue Cross Arena', kind: 'arena', capacity: 11200, ...ROCHESTER_NY, lat: 43.157, lng: -77.614, zip: '14614' },
  { name: 'JMA Wireless Dome', kind: 'stadium', capacity: 49057, ...SYRACUSE, lat: 43.036, lng: -76.136, zip: '13244' },
  { name: 'Landmark Theatre', kind: 'theater', capacity: 2922, ...SYRACUSE, lat: 43.047, lng: -76.152, zip: '13202' },
  { name: 'PeoplesBank Arena', kind: 'arena', capacity: 15635, ...HARTFORD, lat: 41.768, lng: -72.677, zip: '06103' },
  { name: 'Bushnell Center for the Performing Arts', kind: 'theater', capacity: 2800, ...HARTFORD, lat: 41.763, lng: -72.683, zip: '06106' },
  { name: 'Providence Performing Arts Center', kind: 'theater', capacity: 3100, ...PROVIDENCE, lat: 41.822, lng: -71.415, zip: '02903' },
  { name: 'Amica Mutual Pavilion', kind: 'arena', capacity: 14000, ...PROVIDENCE, lat: 41.823, lng: -71.418, zip: '02903' },
  { name: 'Boardwalk Hall', kind: 'arena', capacity: 14770, ...ATLANTIC_CITY, lat: 39.356, lng: -74.439, zip: '08401' },
  { name: 'Dover Motor Speedway', kind: 'raceway', capacity: 54000, ...DOVER, lat: 39.190, lng: -75.530, zip: '19901' },

  // ------------------------------------------------------------ Virginia
  { name: 'Altria Theater', kind: 'theater', capacity: 3565, ...RICHMOND, lat: 37.548, lng: -77.452, zip: '23220' },
  { name: 'Richmond Raceway', kind: 'raceway', capacity: 51000, ...RICHMOND, lat: 37.592, lng: -77.420, zip: '23222' },
  { name: 'Chrysler Hall', kind: 'theater', capacity: 2500, ...NORFOLK, lat: 36.851, lng: -76.287, zip: '23510' },
  { name: 'Norfolk Scope', kind: 'arena', capacity: 13800, ...NORFOLK, lat: 36.853, lng: -76.289, zip: '23510' },

  // ------------------------------------------------------------ Hawaii and Alaska
  { name: 'Neal S. Blaisdell Center', kind: 'arena', capacity: 8800, ...HONOLULU, lat: 21.300, lng: -157.851, zip: '96814' },
  { name: 'Hawaii Theatre', kind: 'theater', capacity: 1400, ...HONOLULU, lat: 21.311, lng: -157.862, zip: '96813' },
  { name: 'Waialae Country Club', kind: 'golf-course', capacity: 15000, ...HONOLULU, lat: 21.271, lng: -157.774, zip: '96816' },
  { name: 'Alaska Center for the Performing Arts', kind: 'theater', capacity: 2000, ...ANCHORAGE, lat: 61.218, lng: -149.895, zip: '99501' },

  // ------------------------------------------------------------ London (West End and other venues)
  { name: 'Lyceum Theatre', kind: 'theater', capacity: 2100, ...LONDON, lat: 51.511, lng: -0.120, zip: 'WC2E 7RQ' },
  { name: "Her Majesty's Theatre", kind: 'theater', capacity: 1216, ...LONDON, lat: 51.508, lng: -0.132, zip: 'SW1Y 4QL' },
  { name: 'Prince Edward Theatre', kind: 'theater', capacity: 1716, ...LONDON, lat: 51.513, lng: -0.131, zip: 'W1D 4HS' },
  { name: 'Apollo Victoria Theatre', kind: 'theater', capacity: 2328, ...LONDON, lat: 51.496, lng: -0.143, zip: 'SW1V 1LG' },
  { name: 'Theatre Royal Drury Lane', kind: 'theater', capacity: 1996, ...LONDON, lat: 51.513, lng: -0.120, zip: 'WC2B 5JF' },
  { name: 'London Palladium', kind: 'theater', capacity: 2286, ...LONDON, lat: 51.514, lng: -0.141, zip: 'W1F 7TF' },
  { name: 'Sondheim Theatre', kind: 'theater', capacity: 1074, ...LONDON, lat: 51.512, lng: -0.132, zip: 'W1D 6BA' },
  { name: 'Novello Theatre', kind: 'theater', capacity: 1105, ...LONDON, lat: 51.512, lng: -0.119, zip: 'WC2B 4LD' },
  { name: 'Victoria Palace Theatre', kind: 'theater', capacity: 1517, ...LONDON, lat: 51.497, lng: -0.142, zip: 'SW1E 5EA' },
  { name: 'Palace Theatre', kind: 'theater', capacity: 1400, ...LONDON, lat: 51.513, lng: -0.129, zip: 'W1D 5AY' },
  { name: 'Dominion Theatre', kind: 'theater', capacity: 2069, ...LONDON, lat: 51.517, lng: -0.130, zip: 'W1T 7AQ' },
  { name: 'Gielgud Theatre', kind: 'theater', capacity: 986, ...LONDON, lat: 51.512, lng: -0.133, zip: 'W1D 6AR' },
  { name: 'Piccadilly Theatre', kind: 'theater', capacity: 1232, ...LONDON, lat: 51.511, lng: -0.135, zip: 'W1D 7DY' },
  { name: 'Adelphi Theatre', kind: 'theater', capacity: 1500, ...LONDON, lat: 51.510, lng: -0.123, zip: 'WC2R 0NS' },
  { name: 'Royal Opera House', kind: 'opera-house', capacity: 2256, ...LONDON, lat: 51.513, lng: -0.122, zip: 'WC2E 9DD' },
  { name: 'Royal Albert Hall', kind: 'concert-hall', capacity: 5272, ...LONDON, lat: 51.501, lng: -0.177, zip: 'SW7 2AP' },
  { name: 'The O2 Arena', kind: 'arena', capacity: 20000, ...LONDON, lat: 51.503, lng: 0.003, zip: 'SE10 0DX' },

  // ------------------------------------------------------------ Toronto
  { name: 'Massey Hall', kind: 'concert-hall', capacity: 2765, ...TORONTO, lat: 43.654, lng: -79.379, zip: 'M5B 1T7' },
  { name: 'Roy Thomson Hall', kind: 'concert-hall', capacity: 2630, ...TORONTO, lat: 43.647, lng: -79.386, zip: 'M5J 2H5' },
  { name: 'Meridian Hall', kind: 'theater', capacity: 3191, ...TORONTO, lat: 43.647, lng: -79.376, zip: 'M5E 1B2' },
  { name: 'Princess of Wales Theatre', kind: 'theater', capacity: 2000, ...TORONTO, lat: 43.647, lng: -79.389, zip: 'M5V 1J2' },
  { name: 'Royal Alexandra Theatre', kind: 'theater', capacity: 1244, ...TORONTO, lat: 43.647, lng: -79.388, zip: 'M5V 1H9' },
  { name: 'Ed Mirvish Theatre', kind: 'theater', capacity: 2263, ...TORONTO, lat: 43.656, lng: -79.379, zip: 'M5B 1V8' },
  { name: 'Four Seasons Centre for the Performing Arts', kind: 'opera-house', capacity: 2071, ...TORONTO, lat: 43.651, lng: -79.386, zip: 'M5H 4G1' },
  { name: 'Budweiser Stage', kind: 'amphitheater', capacity: 16000, ...TORONTO, lat: 43.629, lng: -79.415, zip: 'M6K 3L3' },
  { name: 'Coca-Cola Coliseum', kind: 'arena', capacity: 8100, ...TORONTO, lat: 43.636, lng: -79.418, zip: 'M6K 3C3' },
  { name: 'Sobeys Stadium', kind: 'stadium', capacity: 12500, ...TORONTO, lat: 43.771, lng: -79.511, zip: 'M3N 3A6' },

  // ------------------------------------------------------------ Mexico City
  { name: 'Estadio GNP Seguros', kind: 'stadium', capacity: 65000, ...CDMX, lat: 19.404, lng: -99.089, zip: '08400' },
  { name: 'Palacio de los Deportes', kind: 'arena', capacity: 20000, ...CDMX, lat: 19.407, lng: -99.097, zip: '08400' },
  { name: 'Autódromo Hermanos Rodríguez', kind: 'raceway', capacity: 110000, ...CDMX, lat: 19.404, lng: -99.091, zip: '08400' },
  { name: 'Auditorio Nacional', kind: 'concert-hall', capacity: 10000, ...CDMX, lat: 19.425, lng: -99.195, zip: '11580' },
  { name: 'Arena Ciudad de México', kind: 'arena', capacity: 22300, ...CDMX, lat: 19.494, lng: -99.174, zip: '02230' },
  { name: 'Palacio de Bellas Artes', kind: 'opera-house', capacity: 1677, ...CDMX, lat: 19.435, lng: -99.141, zip: '06050' },
  { name: 'Arena México', kind: 'arena', capacity: 16500, ...CDMX, lat: 19.424, lng: -99.152, zip: '06720' },
  { name: 'Teatro Metropólitan', kind: 'theater', capacity: 3165, ...CDMX, lat: 19.435, lng: -99.145, zip: '06050' },
];
